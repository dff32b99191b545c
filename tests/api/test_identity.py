"""Who a caller is cannot be chosen or guessed (app/http/viewer.py): device identities are issued, one per browser
profile, signed; bearer tokens signed with any other key count for nothing; progress stays within the episode."""

from __future__ import annotations

import jwt
import pytest

from tests.api.test_activity_api import stored_rows
from tests.api.test_catalogue_api import assert_error

ISSUE = "/session-context"
SERIES_EPISODE = "/contents/2/episodes/3"  # 60 s long
LAST = "/contents/2/episodes/watched/last"


def issue(client, fingerprint: str = "same-phone-model-hash") -> str:
    response = client.post(ISSUE, json={"fingerprint": fingerprint})
    assert response.status_code == 201
    assert response.headers["Cache-Control"] == "no-store"
    return response.get_json()["sessionContext"]


def test_two_identical_browsers_get_two_identities_with_their_own_progress(app, client, demo_catalogue):
    first, second = issue(client), issue(client)  # the same hardware, locale and screen: the same fingerprint
    assert first != second and first.split(".")[0] == second.split(".")[0]
    assert client.post(f"{SERIES_EPISODE}/time-progress", json={"time": 30},
                       headers={"X-Session-Context": first}).status_code == 204
    assert client.get(LAST, headers={"X-Session-Context": first}).get_json()["time"] == 30
    assert_error(client.get(LAST, headers={"X-Session-Context": second}), 404, "nothing_watched")


def test_knowing_another_devices_identity_parts_does_not_make_one(app, client, demo_catalogue):
    victim = issue(client)
    client.post(f"{SERIES_EPISODE}/completed", headers={"X-Session-Context": victim})
    fingerprint, device, signature = victim.split(".")
    attempts = [
        fingerprint,  # what used to be an identity: anyone with the same phone computes it
        f"{fingerprint}.{device}",
        f"{fingerprint}.{device}.{signature[:-1]}{'B' if signature.endswith('A') else 'A'}",  # one character off
        f"other-signals-hash.{device}.{signature}",  # the victim's random part with another fingerprint
        f"{fingerprint}.{device[:-1]}x.{signature}",
    ]
    for forged in attempts:
        headers = {"X-Session-Context": forged}
        assert_error(client.post(f"{SERIES_EPISODE}/completed", headers=headers), 401, "viewer_unknown")
        assert_error(client.delete(f"{SERIES_EPISODE}/completed", headers=headers), 401, "viewer_unknown")
        assert_error(client.get(LAST, headers=headers), 401, "viewer_unknown")
    assert [row.completed for row in stored_rows(app)] == [True]  # the victim's mark is untouched


def test_an_identity_signed_with_another_key_is_refused(app, client, demo_catalogue):
    token = issue(client)
    app.config["SECRET_KEY"] = "another-deployment-with-its-own-key-000"
    assert_error(client.get(LAST, headers={"X-Session-Context": token}), 401, "viewer_unknown")


@pytest.mark.parametrize("fingerprint", ["", "short", "has space 1234", "x" * 65, "dots.are.not.ok", "a\u00e9bcdefgh"])
def test_only_a_fingerprint_is_taken_to_issue_an_identity(client, fingerprint):
    assert_error(client.post(ISSUE, json={"fingerprint": fingerprint}), 422, "validation_error")


@pytest.mark.filterwarnings("ignore::jwt.warnings.InsecureKeyLengthWarning")  # the old key was that short
@pytest.mark.parametrize("key", ["dev-only-secret-do-not-deploy", "another-key-0123456789-0123456789"])
def test_a_bearer_token_signed_with_any_other_key_is_refused(client, demo_catalogue, key):
    """The old development key was a public string: a token signed with it wrote progress as user:42. Now it is
    refused for what it is (never taken for no token, nor for the device beside it)."""
    forged = jwt.encode({"sub": "42", "type": "access", "fresh": False}, key, algorithm="HS256")
    headers = {"Authorization": f"Bearer {forged}"}
    assert_error(client.post(f"{SERIES_EPISODE}/time-progress", json={"time": 5}, headers=headers), 401,
                 "invalid_token")


def test_progress_beyond_the_episodes_length_is_refused(app, client, demo_catalogue, viewer_headers):
    headers = viewer_headers()
    error = assert_error(client.post(f"{SERIES_EPISODE}/time-progress", json={"time": 61}, headers=headers), 422,
                         "time_beyond_duration")
    assert error["details"] == {"episodeId": 3, "duration": 60}
    assert client.post(f"{SERIES_EPISODE}/time-progress", json={"time": 60}, headers=headers).status_code == 204
    assert [(row.episode_id, row.time) for row in stored_rows(app)] == [(3, 60)]


def test_issuing_identities_is_rate_limited(app, client):
    app.config["RATE_LIMIT_SESSION_CONTEXT"] = "2 per minute"
    issue(client)
    issue(client)
    assert_error(client.post(ISSUE, json={"fingerprint": "same-phone-model-hash"}), 429, "too_many_requests")
