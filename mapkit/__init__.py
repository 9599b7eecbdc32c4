"""mapkit: design, validate, render and simulate Voll verplant city maps."""

__version__ = "0.1.0"


def _quiet_start() -> None:
    """In the ``mapkit`` command, a Ctrl-C or SIGTERM before the command line is set up ends
    the process quietly (nothing is written yet): here, the first code of mapkit to run."""
    import sys
    from itertools import pairwise

    argv = getattr(sys, "orig_argv", sys.argv)
    script = (sys.argv[0] if sys.argv else "").replace("\\", "/").rsplit("/", 1)[-1]
    as_module = any(a == "-m" and b == "mapkit" for a, b in pairwise(argv))
    if as_module or script == "mapkit":
        from mapkit.signals import install_early

        install_early()


_quiet_start()
