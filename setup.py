"""Build script: finds the packages and compiles the Cython kernels.

The packages are the top-level folders ``engine/``, ``search/``, ``cli/`` and ``positions/``
(see DEVELOPERS.md and the README's layout section); every ``.pyx`` below them is compiled.

Set ``CRYSTALPICK_DEBUG=1`` while building for a checked build: Cython's bounds, wraparound
and initialisation checks back on (memoryviews), and GCC's array-bounds sanitizer in trap
mode for the kernels' fixed-size C arrays (an out-of-bounds index stops the process at once
instead of corrupting memory), without optimisation.
"""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

SUBPACKAGES = ["engine", "search", "cli", "positions"]
DEBUG = os.environ.get("CRYSTALPICK_DEBUG", "") not in ("", "0")
DEBUG_FLAGS = ["-O0", "-g", "-fsanitize=bounds", "-fsanitize-undefined-trap-on-error"]


def find_packages():
    packages = []
    for top in SUBPACKAGES:
        for folder, dirs, files in os.walk(top):
            dirs[:] = [d for d in dirs if not d.startswith((".", "_"))]
            if "__init__.py" in files:
                packages.append(folder.replace(os.sep, "."))
    return packages


def extensions():
    modules = []
    for top in SUBPACKAGES:
        for folder, _, files in os.walk(top):
            for f in files:
                if f.endswith(".pyx"):
                    path = os.path.join(folder, f)
                    name = path[:-4].replace(os.sep, ".")
                    modules.append(Extension(
                        name, [path],
                        extra_compile_args=DEBUG_FLAGS if DEBUG else ["-O3"],
                    ))
    directives = {
        "language_level": 3,
        "boundscheck": DEBUG,
        "wraparound": DEBUG,
        "initializedcheck": DEBUG,
        "cdivision": not DEBUG,
    }
    # Separate C output folders per mode, so switching modes never reuses stale C files.
    build_dir = os.path.join("build", "cython-debug" if DEBUG else "cython")
    return cythonize(modules, compiler_directives=directives, build_dir=build_dir,
                     annotate=os.environ.get("CRYSTALPICK_ANNOTATE") == "1")


setup(
    packages=find_packages(),
    package_data={"positions": ["*.perft", "*.bench", "*.solved", "*.openings", "*.txt", "*.json", "*.toml", "*.epd"],
                  "engine": ["**/*.pxd", "**/*.toml", "**/*.json"]},
    ext_modules=extensions(),
    zip_safe=False,
)
