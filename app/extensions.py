"""Extensions, created unbound here and bound to an application in ``create_app``."""

from __future__ import annotations

from flask import request
from flask_caching import Cache
from flask_jwt_extended import JWTManager
from flask_mailman import Mail
from flask_migrate import Migrate
from flask_smorest import Api
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

from app.http.compression import TextCompress
from app.http.limiter import Limiter
from app.http.proxies import client_ip

# Named constraints, so that Alembic migrations can alter and drop them on every database.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
jwt = JWTManager()
cache = Cache()
api = Api()
limiter = Limiter(key_func=client_ip)  # limits per route, keyed as they say: app/http/rates.py
# A CORS preflight is Flask's own answer and costs nothing: never counted, never refused (app/http/cors.py)
limiter.request_filter(lambda: request.method == "OPTIONS")
mail = Mail()  # SMTP, or the log and instance/outbox/ without MAIL_SERVER (app/http/mail.py)
compress = TextCompress()  # brotli or gzip for text only (app/http/compression.py)
