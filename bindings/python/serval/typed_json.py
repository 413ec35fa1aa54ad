"""serval's typed JSON as text: to_json(value) writes what `serval dump`
prints for the same value (two spaces per level and a final newline; the
library's own JSON writer writes it), and from_json(text) reads what
`serval conv` reads (docs/json.md)."""
import sys as _sys


def _pkg():
    return _sys.modules[__package__]


def to_json(value, indent=2):
    """The typed JSON text of value (a str), byte for byte what `serval dump`
    prints for it: pretty with indent spaces per level (0: compact, as
    `serval dump --compact` and `conv --to json` write), and a final
    newline. Raises serval.Error for a value typed JSON cannot hold (none
    that loads() gives) and TypeError for an object serval cannot write."""
    if isinstance(indent, bool) or not isinstance(indent, int):
        raise ValueError("serval: indent needs a whole number from 0 to 16, not %r" % (indent,))
    text = _pkg().dumps(value, "json", indent=indent)
    return text.decode("utf-8") + "\n"


def from_json(text, **options):
    """The value of typed JSON text (str or bytes), as loads(data, "json")
    gives it; options are the json format's (comments=True, plain=True) and
    the limits."""
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogatepass")
    return _pkg().loads(text, "json", **options)
