"""The decisions behind the player page (spec §3 "Player context"): the episode to open (spec §2) and whether the
content may play for this viewer (spec §4), made on plain facts about the content (its episodes' places and its
availability rules), which the page keeps in a cached snapshot (app/snapshots.py); the viewer's part is their
country, the embedding domain and the episodes they finished."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from app.models import RuleKind
from app.services.player.availability import Verdict, check_availability
from app.services.player.episodes import EpisodeRef, choose_episode
from app.services.player.params import PlayerParams

Rule = tuple[RuleKind | str, str]


@dataclass(frozen=True)
class Viewer:
    country: str | None  # ISO 3166-1 alpha-2, lower case
    domain: str | None  # host of the embedding page, when the browser told us
    completed: frozenset[int] = frozenset()  # episode ids this viewer finished
    skip_domain_check: bool = False  # a trusted publisher's disable_checking_available (never the country check)


@dataclass(frozen=True)
class Decision:
    episode_id: int | None  # the episode the player opens
    verdict: Verdict

    @property
    def available(self) -> bool:
        return self.verdict.available


def availability_of(rules: Iterable[Rule], viewer: Viewer) -> Verdict:
    return check_availability(rules, country=viewer.country, domain=viewer.domain,
                              check_domain=not viewer.skip_domain_check)


def decide(episodes: Sequence[EpisodeRef], rules: Iterable[Rule], params: PlayerParams, viewer: Viewer) -> Decision:
    """``episodes`` in play order. spec §4 lets the embed disable the availability check; here it never lifts a
    country block, and lifts the domain check only for a trusted publisher, which the caller decides
    (viewer.skip_domain_check): docs/licences.md."""
    chosen = choose_episode(episodes, episode_id=params.episode_id, season=params.season, episode=params.episode,
                            completed=viewer.completed)
    return Decision(episode_id=chosen.id if chosen else None, verdict=availability_of(rules, viewer))
