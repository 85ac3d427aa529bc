"""The names callers used before `leadflow.ports`; goes once no caller asks for them."""
from leadflow.ports import Ports as Adapters
from leadflow.ports import adapters

__all__ = ["Adapters", "adapters"]
