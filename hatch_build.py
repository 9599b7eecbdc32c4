"""Hatch build hook: compile the game kernel with Cython for every wheel, editable ones too.

The compiling lives in ``mapkit/kernel_build.py`` (also the in-place rebuild command),
loaded here by path: the build runs before mapkit's dependencies are installed, so the package
itself cannot be imported. A failed compile fails the install; there is no pure-Python fallback.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _kernel_build(root: Path) -> Any:
    path = root / "mapkit" / "kernel_build.py"
    spec = importlib.util.spec_from_file_location("mapkit_kernel_build", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class KernelBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        kernel_build = _kernel_build(root)
        built = kernel_build.build(root)
        self.app.display_info(
            f"mapkit: compiled the game kernel {built.module.name} in {built.seconds:.1f} s"
        )
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        if version == "editable":
            return  # the editable wheel puts the source tree, with the module in it, on sys.path
        # both are git-ignored, so hatch would leave them out without being told
        for made in (built.module, built.module.parent / kernel_build.RECORD_NAME):
            build_data["force_include"][str(made)] = made.relative_to(root).as_posix()
