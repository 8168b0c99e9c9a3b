"""paperlist: a fast, bilingual library of AI top-conference papers."""

__version__ = "0.1.0"
