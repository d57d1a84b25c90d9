"""typing.NamedTuple's class syntax, without importing typing (which costs a one-shot
`epdle suggest` a tenth of its imports): `class Point(NamedTuple): x: int` makes the same
collections.namedtuple class as typing does. Type checkers read typing's own."""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:

    class _NamedTupleType(type):
        def __new__(cls, name, bases, namespace):
            if not bases:  # NamedTuple itself
                return super().__new__(cls, name, bases, namespace)
            fields = namespace.get("__annotations__", {})
            defaults = [namespace[field] for field in fields if field in namespace]
            made = namedtuple(name, fields, defaults=defaults, module=namespace["__module__"])
            made.__annotations__ = fields
            for key, value in namespace.items():  # methods, docstring, qualified name
                if key not in fields and key not in ("__module__", "__annotations__"):
                    setattr(made, key, value)
            return made

    class NamedTuple(metaclass=_NamedTupleType):
        pass
