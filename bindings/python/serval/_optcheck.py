"""Options checked when a call is made, not when its first item is decoded:
an iterator or a Dask bag would otherwise report a misspelt option only
later, or once per file."""
import sys as _sys


def check(fmt, options, call, **fixed):
    """Raises what loads() raises for options (plus fixed) given to format
    fmt: TypeError for an unknown name, ValueError for a bad value; not the
    error of the empty data it is tried on."""
    try:
        _sys.modules[__package__].loads(b"", fmt, **dict(options, **fixed))
    except TypeError as e:
        raise TypeError(str(e).replace("loads()", call + "()")) from None
    except ValueError as e:
        # serval.Error of the empty data is expected; a value the format
        # refuses (framing="bogus") is a usage error of the call
        if not hasattr(e, "status") or e.status in ("SV_ERR_USAGE", "SV_ERR_NOT_FOUND"):
            raise
