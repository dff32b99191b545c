"""Everything the player page needs, resolved on the server in three queries (spec §3 "Player context"): the
content, its episodes, the episode to open (spec §2) and whether it may play for this viewer (spec §4). The page
turns it into its JSON blob (app/player/context.py)."""

from __future__ import annotations

from dataclasses import dataclass

from app.models import AvailabilityRule, Content, Episode
from app.services.availability import Verdict, check_availability
from app.services.catalogue import episode_ref, load_content, load_episodes
from app.services.episodes import choose_episode
from app.services.params import PlayerParams


@dataclass(frozen=True)
class Viewer:
    country: str | None  # ISO 3166-1 alpha-2, lower case
    domain: str | None  # host of the embedding page, when the browser told us
    completed: frozenset[int] = frozenset()  # episode ids this viewer finished
    skip_domain_check: bool = False  # a trusted publisher's disable_checking_available (never the country check)


@dataclass(frozen=True)
class PlayerContext:
    params: PlayerParams
    viewer: Viewer
    content: Content
    episodes: list[Episode]  # in play order
    episode: Episode | None  # the one the player opens
    verdict: Verdict

    @property
    def available(self) -> bool:
        return self.verdict.available



def availability_of(rules: list[AvailabilityRule], viewer: Viewer) -> Verdict:
    return check_availability(((r.kind, r.value) for r in rules), country=viewer.country, domain=viewer.domain,
                              check_domain=not viewer.skip_domain_check)


def resolve_player_context(params: PlayerParams, viewer: Viewer) -> PlayerContext | None:
    """None when no such content exists; otherwise the context, available or not."""
    content = load_content(params.movie_id)
    if content is None:
        return None
    episodes = load_episodes(content.id)
    chosen_ref = choose_episode(
        [episode_ref(e) for e in episodes],
        episode_id=params.episode_id,
        season=params.season,
        episode=params.episode,
        completed=viewer.completed,
    )
    chosen = next((e for e in episodes if chosen_ref and e.id == chosen_ref.id), None)
    # spec §4 lets the embed disable the check; here it never lifts a country block, and lifts the domain check only
    # for a trusted publisher, which the caller decides (viewer.skip_domain_check): README "Licences"
    verdict = availability_of(content.availability_rules, viewer)
    return PlayerContext(params=params, viewer=viewer, content=content, episodes=episodes, episode=chosen,
                         verdict=verdict)
