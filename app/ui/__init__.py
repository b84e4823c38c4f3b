"""PySide6 user interface."""
import sys as _sys

if _sys.version_info < (3, 12):
    # PySide6 6.12 on CPython 3.11 returns the singletons None (every C++ method that returns
    # void) and True/False (SignalInstance.emit) without taking a reference to them: 100 calls of
    # QWidget.setEnabled lower sys.getrefcount(None) by 100, 100 emits of a signal lower
    # sys.getrefcount(True) by 100. They are immortal from 3.12 on, but on 3.11 a GUI session
    # dies with "Fatal Python error: none_dealloc" (or bool_dealloc) after some ten thousand Qt
    # calls. Give the three singletons reference counts they cannot run out of.
    import ctypes as _ctypes

    for _obj in (None, True, False):
        _ctypes.c_ssize_t.from_address(id(_obj)).value += 1 << 40
    del _obj
