"""The build's two additions to pyproject.toml.

* The catalogs: ``build_py`` compiles each ``mille/locale/*/LC_MESSAGES/
  mille.po`` to its ``mille.mo`` beside it (in the source tree, which git
  ignores, so that ``pip install -e .`` finds it too), before the package
  data (``*.mo``) is copied: ``pip install .`` alone gives every language.
  The compiler is ``mille/i18n.py``'s own (``read_po``, ``write_mo``: the
  format is small), read by path: no build requirement beyond setuptools.
* Only for ``pip install -e .``: setuptools' editable wheels leave out the
  data files (pypa/setuptools#3399: ``editable_wheel`` asks the
  distribution for ``has_data``, which does not exist, instead of
  ``has_data_files``), so the man pages would not reach
  ``<prefix>/share/man/man6`` where ``man`` finds them.

Everything else is in pyproject.toml."""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def compile_catalogs() -> None:
    """Every ``.po`` of ``mille/locale`` to its ``.mo`` (rewritten only when
    it changes)."""
    spec = importlib.util.spec_from_file_location("_mille_i18n", HERE / "mille" / "i18n.py")
    assert spec is not None and spec.loader is not None
    i18n = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(i18n)
    for po in sorted((HERE / "mille" / "locale").glob("*/LC_MESSAGES/*.po")):
        data = i18n.write_mo(i18n.read_po(po.read_text(encoding="utf-8")))
        mo = po.with_suffix(".mo")
        if not mo.is_file() or mo.read_bytes() != data:
            mo.write_bytes(data)


class BuildWithCatalogs(build_py):
    """``build_py`` that compiles the catalogs first."""

    def run(self) -> None:
        compile_catalogs()
        super().run()


commands = {"build_py": BuildWithCatalogs}

try:
    from setuptools.command.editable_wheel import editable_wheel
except ImportError:  # setuptools < 64 has no editable wheels
    pass
else:

    class EditableWheelWithData(editable_wheel):
        """An editable wheel that carries the data files, as a regular one does."""

        def _run_install(self, category: str) -> None:
            if category == "data":
                if self.distribution.has_data_files():
                    self.run_command("install_data")
                return
            super()._run_install(category)

    commands["editable_wheel"] = EditableWheelWithData

setup(cmdclass=commands)
