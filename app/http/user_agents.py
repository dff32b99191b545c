"""What a person recognises of a browser's User-Agent: "Chrome 131 · Android 14" (ua-parser, the uap-core rules
every analytics tool uses), for the account's list of sessions."""

from __future__ import annotations

from functools import lru_cache

from ua_parser import parse

UNKNOWN = "Неизвестное устройство"


@lru_cache(maxsize=1024)
def device_label(user_agent: str | None) -> str:
    if not user_agent:
        return UNKNOWN
    parsed = parse(user_agent)
    parts = []
    if parsed.user_agent is not None and parsed.user_agent.family != "Other":
        parts.append(" ".join(filter(None, (parsed.user_agent.family, parsed.user_agent.major))))
    if parsed.os is not None and parsed.os.family != "Other":
        parts.append(" ".join(filter(None, (parsed.os.family, parsed.os.major))))
    return " · ".join(parts) or UNKNOWN
