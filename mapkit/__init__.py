"""mapkit: design, validate, render and simulate Voll verplant city maps."""

__version__ = "0.1.0"
