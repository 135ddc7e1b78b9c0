"""The compiled df-pn (docs/proof-search.md): one C extension, built by `pip install -e .`.

Everything else about the package is in pyproject.toml; setuptools reads both.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension(
    "solver.search._dfpn",
    sources=["solver/search/dfpn.c", "solver/games/kernels.c", "solver/games/positional/kernel.c",
             "solver/games/uttt/kernel.c"],
    depends=["solver/search/dfpn.h"],
    extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter", "-Wno-missing-field-initializers"],
)])
