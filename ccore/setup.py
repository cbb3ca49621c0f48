"""Build of the optional compiled core: one C extension, `solitaire_nb_core._core` (CPython API)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "solitaire_nb_core._core",
            sources=["solitaire_nb_core/_core.c"],
            extra_compile_args=["-O2"],
            # without a C compiler or Python's headers the package installs without it (the
            # solver then runs in pure Python), rather than failing the whole install
            optional=True,
        )
    ]
)
