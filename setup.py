"""Only for ``pip install -e .``: setuptools' editable wheels leave out the
data files (pypa/setuptools#3399: ``editable_wheel`` asks the distribution
for ``has_data``, which does not exist, instead of ``has_data_files``), so
the man page would not reach ``<prefix>/share/man/man6`` where ``man``
finds it.  Everything else is in pyproject.toml."""

from setuptools import setup

try:
    from setuptools.command.editable_wheel import editable_wheel
except ImportError:  # setuptools < 64 has no editable wheels
    setup()
else:

    class EditableWheelWithData(editable_wheel):
        """An editable wheel that carries the data files, as a regular one does."""

        def _run_install(self, category: str) -> None:
            if category == "data":
                if self.distribution.has_data_files():
                    self.run_command("install_data")
                return
            super()._run_install(category)

    setup(cmdclass={"editable_wheel": EditableWheelWithData})
