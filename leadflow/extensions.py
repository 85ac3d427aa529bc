"""Flask extensions, created unbound and bound in create_app."""
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sock import Sock
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData

# Named constraints so Alembic migrations are the same on PostgreSQL and SQLite.
metadata = MetaData(naming_convention={
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
})

db = SQLAlchemy(metadata=metadata)
migrate = Migrate()
sock = Sock()
csrf = CSRFProtect()
login_manager = LoginManager()
# No limit by default; routes declare theirs (sign-in). Storage and key prefix come from the config.
limiter = Limiter(key_func=get_remote_address)
