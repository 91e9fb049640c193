"""Build script: maps the folders to the ``crystalpick`` import namespace and compiles the
Cython kernels.

The top-level folders ``engine/``, ``search/``, ``solvers/``, ``apps/``, ``cli/`` and
``positions/`` install as ``crystalpick.engine``, ``crystalpick.search``, ... (``package_dir``), so no generic
top-level name such as ``search`` or ``cli`` is installed. ``crystalpick`` itself is a
namespace package (PEP 420): it has no folder of its own. Cython resolves ``cimport
crystalpick.engine.kernel`` through ``build/include/crystalpick``, a folder of links to the
top-level folders made before compiling.

Set ``CRYSTALPICK_DEBUG=1`` while building for a checked build: Cython's bounds, wraparound
and initialisation checks back on (memoryviews), and GCC's array-bounds sanitizer in trap
mode for the kernels' fixed-size C arrays (an out-of-bounds index stops the process at once
instead of corrupting memory), without optimisation.
"""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

NAMESPACE = "crystalpick"
FOLDERS = ["engine", "search", "solvers", "apps", "cli", "positions"]
HERE = os.path.dirname(os.path.abspath(__file__))
DEBUG = os.environ.get("CRYSTALPICK_DEBUG", "") not in ("", "0")
CORES = os.cpu_count() or 1     # Cython and the C compiler run one module per core
DEBUG_FLAGS = ["-O0", "-g", "-fsanitize=bounds", "-fsanitize-undefined-trap-on-error"]


def walk(top):
    """(folder, files) below ``top``, skipping hidden and private folders."""
    for folder, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")))
        yield folder, files


def module_name(path):
    return NAMESPACE + "." + path.replace(os.sep, ".")


def find_packages():
    return [module_name(folder) for top in FOLDERS for folder, files in walk(top)
            if "__init__.py" in files]


def include_dir():
    """``build/include/crystalpick/<folder>`` links to each folder, so ``.pxd`` files are
    found under their installed names."""
    root = os.path.join(HERE, "build", "include")
    namespace = os.path.join(root, NAMESPACE)
    os.makedirs(namespace, exist_ok=True)
    for top in FOLDERS:
        link = os.path.join(namespace, top)
        if not os.path.islink(link):
            os.symlink(os.path.join(HERE, top), link)
    return root


def extensions():
    modules = [
        Extension(module_name(os.path.join(folder, f[:-4])), [os.path.join(folder, f)],
                  extra_compile_args=DEBUG_FLAGS if DEBUG else ["-O3"])
        for top in FOLDERS for folder, files in walk(top) for f in sorted(files)
        if f.endswith(".pyx")
    ]
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
                     include_path=[include_dir()], nthreads=CORES,
                     annotate=os.environ.get("CRYSTALPICK_ANNOTATE") == "1")


setup(
    packages=find_packages(),
    package_dir={f"{NAMESPACE}.{top}": top for top in FOLDERS},
    package_data={
        f"{NAMESPACE}.positions": ["*.perft", "*.solved", "*.openings", "*.epd", "*.endgames"],
        f"{NAMESPACE}.engine": ["**/*.pxd", "**/*.toml", "**/*.json", "**/*.bench"],
        f"{NAMESPACE}.search": ["**/*.pxd"],
        f"{NAMESPACE}.solvers": ["**/*.pxd"],
    },
    ext_modules=extensions(),
    options={"build_ext": {"parallel": CORES}},
    zip_safe=False,
)
