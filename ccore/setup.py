"""Build of the optional compiled core: one C extension, `solitaire_nb_core._core` (CPython API)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "solitaire_nb_core._core",
            sources=["solitaire_nb_core/_core.c"],
            extra_compile_args=["-O2"],
        )
    ]
)
