"""Administration of accounts (spec §7, §6: administrators only): search, create, block, unblock. A blocked account's
sessions end at once: its access tokens are refused on their next request, its refresh tokens too."""

from __future__ import annotations

from typing import Any

from app import registry
from app.api.arguments import Blueprint
from app.api.decorators import require_role
from app.api.docs import answers, id_parameter, never_stored
from app.http.tokens import current_account_id
from app.models import Role
from app.models.ids import storable_id
from app.schemas.accounts import NewUserSchema, UserPageSchema, UserSchema, UserSearchSchema
from app.services.accounts import accounts
from app.services.errors import NotFound

blp = Blueprint("administration", __name__, description="Accounts, for administrators")


never_stored(blp)


@blp.route("/administration/users", methods=["POST"])
@require_role(blp, Role.ADMIN)
@blp.arguments(UserSearchSchema)
@blp.response(200, UserPageSchema)
@answers(blp, 401, 403, 422, body=True)
def users(body: dict[str, Any]) -> Any:
    """Accounts whose email or name contains ``query``, by role and blocked state, newest first, a page at a time."""
    page = accounts.search_accounts(body.get("query"), body.get("role"), body.get("blocked"), body["page"],
                                    body["pageSize"])
    return {"items": page.items, "total": page.total, "page": page.page, "pageSize": page.page_size}


@blp.route("/administration/new-user", methods=["POST"])
@require_role(blp, Role.ADMIN)
@blp.arguments(NewUserSchema)
@blp.response(201, UserSchema)
@answers(blp, 401, 403, 409, 422, body=True)
def new_user(body: dict[str, Any]) -> Any:
    """A confirmed account with the given role and password."""
    return accounts.create_account(body["email"], body["name"], body["password"], body["role"])


@blp.route("/administration/block-user/<int:account_id>", methods=["POST"],
           parameters=[id_parameter("account_id", "an account's id", 42)])
@require_role(blp, Role.ADMIN)
@blp.response(200, UserSchema)
@answers(blp, 401, 403, 404, 409)
def block_user(account_id: int) -> Any:
    """Blocks the account and ends its sessions (within a second on every worker). An administrator cannot block
    their own account."""
    if not storable_id(account_id):
        raise NotFound("account_not_found", "Учётная запись не найдена", {"id": account_id})
    return accounts.set_blocked(account_id, True, current_account_id(), registry.revocations())


@blp.route("/administration/unblock-user/<int:account_id>", methods=["POST"],
           parameters=[id_parameter("account_id", "an account's id", 42)])
@require_role(blp, Role.ADMIN)
@blp.response(200, UserSchema)
@answers(blp, 401, 403, 404, 409)
def unblock_user(account_id: int) -> Any:
    """Unblocks the account: it may sign in again (its sessions ended by the block stay ended). Unblocking an account
    that is not blocked changes nothing and answers it as it is."""
    if not storable_id(account_id):
        raise NotFound("account_not_found", "Учётная запись не найдена", {"id": account_id})
    return accounts.set_blocked(account_id, False, current_account_id(), registry.revocations())
