"""Build hook: ship the repository's profiles/*.yaml as the package ``mcplint._profiles``.

Everything else about the package lives in pyproject.toml. The decoder profiles are kept
at the top of the repository (they are data people read and review), and this maps that
folder onto a subpackage inside the wheel. A source checkout or an editable install reads
them from ``profiles/`` directly (see ``mcplint.profiles.loader._builtin_dir``).
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class build_py_with_profiles(build_py):
    def run(self):
        super().run()
        target = Path(self.build_lib) / "mcplint" / "_profiles"
        target.mkdir(parents=True, exist_ok=True)
        (target / "__init__.py").write_text('"""Built-in decoder profiles (data)."""\n', encoding="utf-8")
        for src in sorted((HERE / "profiles").glob("*.yaml")):
            self.copy_file(str(src), str(target / src.name))


setup(cmdclass={"build_py": build_py_with_profiles})
