"""Reviews (spec §7): create, read in both orders and pages, change, delete, vote; the content's counts; the shared
answer and the signed-in one; every refusal in the error shape."""

from __future__ import annotations

import pytest

from app.models import Role
from app.models.reviews import MAX_TEXT, MIN_TEXT
from tests.api.accounts_helpers import block
from tests.api.reviews_helpers import FILM, SERIES, TEXT, reviews_path, signed_in, totals, unpublish, write_review
from tests.api.test_catalogue_api import assert_error


@pytest.fixture
def alice(demo_catalogue, client):
    return signed_in(demo_catalogue, client, "alice@example.com")


@pytest.fixture
def bob(demo_catalogue, client):
    return signed_in(demo_catalogue, client, "bob@example.com")


def test_a_review_is_created_once_and_counted(client, demo_catalogue, alice):
    review = write_review(client, alice, rating=7)
    assert review["rating"] == 7 and review["text"] == TEXT and review["contentId"] == FILM
    assert review["author"]["name"] == "alice" and "email" not in review["author"]
    assert review["isOwn"] is True and review["hidden"] is False and review["myVote"] is None
    assert review["votes"] == {"up": 0, "down": 0, "score": 0} and review["editedAt"] is None
    again = client.post(reviews_path(suffix="/create"), json={"text": TEXT, "rating": 3}, headers=alice)
    error = assert_error(again, 409, "review_exists")
    assert error["details"]["reviewId"] == review["id"]
    assert totals(demo_catalogue) == (1, 7)


def test_the_content_read_and_its_cards_carry_the_count_and_average(client, demo_catalogue, alice, bob):
    write_review(client, alice, rating=7)
    write_review(client, bob, rating=10)
    content = client.get(f"/contents/{FILM}").get_json()
    assert content["reviews"] == {"count": 2, "averageRating": 8.5}
    cards = {card["id"]: card for card in client.get("/contents?pageSize=100").get_json()["items"]}
    assert cards[FILM]["reviews"] == {"count": 2, "averageRating": 8.5}
    assert cards[SERIES]["reviews"] == {"count": 0, "averageRating": None}


def test_text_is_stored_and_answered_as_written(client, demo_catalogue, alice):
    text = 'Смотрите <script>alert(1)</script> и <a href="http://spam.example">тут</a>\nвторая строка\t& ещё'
    review = write_review(client, alice, text=text)
    assert review["text"] == text
    listed = client.get(reviews_path()).get_json()["items"][0]
    assert listed["text"] == text


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"text": "коротко   ", "rating": 5}, 422, "review_text_length"),  # fewer than MIN_TEXT without the spaces
    ({"text": "x" * (MAX_TEXT + 1), "rating": 5}, 422, "validation_error"),
    ({"text": TEXT, "rating": 0}, 422, "validation_error"),
    ({"text": TEXT, "rating": 11}, 422, "validation_error"),
    ({"text": TEXT, "rating": 7.5}, 422, "validation_error"),
    ({"text": TEXT, "rating": "7"}, 422, "validation_error"),
    ({"text": TEXT, "rating": True}, 422, "validation_error"),
    ({"text": TEXT}, 422, "validation_error"),
    ({"rating": 5}, 422, "validation_error"),
    ({"text": TEXT, "rating": 5, "title": "x"}, 422, "validation_error"),
])
def test_bad_reviews_are_refused(client, demo_catalogue, alice, body, status, code):
    error = assert_error(client.post(reviews_path(suffix="/create"), json=body, headers=alice), status, code)
    assert error["message"].startswith(("Неверные данные в полях: ", "Текст рецензии: от 10 до 5000 символов"))
    assert totals(demo_catalogue) == (0, 0)


def test_the_length_limits_themselves_are_taken(client, demo_catalogue, alice, bob):
    write_review(client, alice, text="я" * MIN_TEXT)
    write_review(client, bob, text="я" * MAX_TEXT)


def test_unknown_and_unpublished_contents_are_not_available(client, demo_catalogue, alice):
    review = write_review(client, alice, content_id=SERIES)
    unpublish(demo_catalogue, SERIES)
    for content_id in (SERIES, 999_999, 2**31):
        calls = [client.post(reviews_path(content_id, "/create"), json={"text": TEXT, "rating": 5}, headers=alice),
                 client.get(reviews_path(content_id)), client.post(reviews_path(content_id), json={}),
                 client.put(reviews_path(content_id, f"/{review['id']}"), json={"text": TEXT, "rating": 5},
                            headers=alice),
                 client.delete(reviews_path(content_id, f"/{review['id']}"), headers=alice),
                 client.post(reviews_path(content_id, f"/{review['id']}/vote"), json={"value": 1}, headers=alice)]
        for response in calls:
            if content_id == 2**31:
                assert response.status_code == 404
                continue
            error = assert_error(response, 404, "content_not_found")
            assert error["message"] == "Контент не доступен"


def test_a_review_of_another_content_or_none_is_not_found(client, demo_catalogue, alice, bob):
    review = write_review(client, alice)
    for path in (reviews_path(SERIES, f"/{review['id']}"), reviews_path(FILM, "/424242")):
        assert_error(client.put(path, json={"text": TEXT, "rating": 5}, headers=alice), 404, "review_not_found")
        assert_error(client.post(f"{path}/vote", json={"value": 1}, headers=bob), 404, "review_not_found")
        assert_error(client.delete(path, headers=alice), 404, "review_not_found")


def test_the_author_changes_the_review_and_the_average_follows(client, demo_catalogue, alice, bob):
    review = write_review(client, alice, rating=4)
    write_review(client, bob, rating=6)
    changed = client.put(reviews_path(suffix=f"/{review['id']}"), json={"text": TEXT + " Дополнено.", "rating": 9},
                         headers=alice)
    assert changed.status_code == 200
    body = changed.get_json()
    assert body["rating"] == 9 and body["text"].endswith("Дополнено.") and body["editedAt"] is not None
    assert totals(demo_catalogue) == (2, 15)
    assert_error(client.put(reviews_path(suffix=f"/{review['id']}"), json={"text": TEXT, "rating": 1}, headers=bob),
                 403, "not_author")
    assert totals(demo_catalogue) == (2, 15)


def test_the_author_or_an_editor_deletes_and_the_counts_follow(client, demo_catalogue, alice, bob):
    editor = signed_in(demo_catalogue, client, "ed@example.com", Role.EDITOR)
    first, second = write_review(client, alice, rating=4), write_review(client, bob, rating=6)
    assert_error(client.delete(reviews_path(suffix=f"/{first['id']}"), headers=bob), 403, "not_author")
    assert client.delete(reviews_path(suffix=f"/{first['id']}"), headers=alice).status_code == 204
    assert totals(demo_catalogue) == (1, 6)
    assert client.delete(reviews_path(suffix=f"/{second['id']}"), headers=editor).status_code == 204
    assert totals(demo_catalogue) == (0, 0)
    assert client.get(reviews_path()).get_json()["total"] == 0
    for path in (reviews_path(2**31, f"/{second['id']}"), reviews_path(FILM, f"/{2**31}")):  # beyond 32 bits
        assert client.delete(path, headers=editor).status_code == 404
    write_review(client, alice, rating=2)  # deleted, the account may write again
    assert totals(demo_catalogue) == (1, 2)


def test_votes_count_change_and_are_taken_back(client, demo_catalogue, alice, bob):
    carol = signed_in(demo_catalogue, client, "carol@example.com")
    review = write_review(client, alice)
    path = reviews_path(suffix=f"/{review['id']}/vote")
    answer = client.post(path, json={"value": 1}, headers=bob)
    assert answer.status_code == 200
    assert answer.get_json() == {"reviewId": review["id"], "votes": {"up": 1, "down": 0, "score": 1}, "myVote": 1}
    assert client.post(path, json={"value": 1}, headers=bob).get_json()["votes"] == {"up": 1, "down": 0, "score": 1}
    assert client.post(path, json={"value": -1}, headers=carol).get_json()["votes"] == {"up": 1, "down": 1, "score": 0}
    assert client.post(path, json={"value": -1}, headers=bob).get_json() == {
        "reviewId": review["id"], "votes": {"up": 0, "down": 2, "score": -2}, "myVote": -1}
    assert client.post(path, json={"value": 0}, headers=bob).get_json() == {
        "reviewId": review["id"], "votes": {"up": 0, "down": 1, "score": -1}, "myVote": None}
    assert client.post(path, json={"value": 0}, headers=bob).get_json()["votes"]["down"] == 1  # again: nothing
    mine = client.post(reviews_path(), json={}, headers=carol).get_json()["items"][0]
    assert mine["myVote"] == -1 and mine["isOwn"] is False and mine["votes"]["down"] == 1
    assert client.post(reviews_path(), json={}, headers=bob).get_json()["items"][0]["myVote"] is None


@pytest.mark.parametrize("value", [2, -2, "1", 1.0, True, None])
def test_a_vote_is_one_of_three_values(client, demo_catalogue, alice, bob, value):
    review = write_review(client, alice)
    response = client.post(reviews_path(suffix=f"/{review['id']}/vote"), json={"value": value}, headers=bob)
    assert_error(response, 422, "validation_error")


def test_nobody_votes_on_their_own_review(client, demo_catalogue, alice):
    review = write_review(client, alice)
    response = client.post(reviews_path(suffix=f"/{review['id']}/vote"), json={"value": 1}, headers=alice)
    error = assert_error(response, 403, "own_review")
    assert error["message"] == "Нельзя голосовать за свою рецензию"


def test_the_two_orders_and_the_pages(client, demo_catalogue, clock):
    authors = [signed_in(demo_catalogue, client, f"r{n}@example.com") for n in range(5)]
    voters = [signed_in(demo_catalogue, client, f"v{n}@example.com") for n in range(3)]
    ids = []
    for author in authors:
        ids.append(write_review(client, author)["id"])
        clock.shift(60)
    for voter in voters:  # the second review: +3; the fourth: +1; the first: −1
        client.post(reviews_path(suffix=f"/{ids[1]}/vote"), json={"value": 1}, headers=voter)
    client.post(reviews_path(suffix=f"/{ids[3]}/vote"), json={"value": 1}, headers=voters[0])
    client.post(reviews_path(suffix=f"/{ids[0]}/vote"), json={"value": -1}, headers=voters[0])
    newest = client.get(reviews_path()).get_json()
    assert [item["id"] for item in newest["items"]] == list(reversed(ids))
    assert (newest["total"], newest["page"], newest["pageSize"]) == (5, 1, 20)
    helpful = client.get(reviews_path() + "?sort=helpful").get_json()
    assert [item["id"] for item in helpful["items"]] == [ids[1], ids[3], ids[4], ids[2], ids[0]]
    pages = [client.post(reviews_path(), json={"sort": "helpful", "page": page, "pageSize": 2}).get_json()
             for page in (1, 2, 3, 4)]
    assert [[item["id"] for item in page["items"]] for page in pages] == [[ids[1], ids[3]], [ids[4], ids[2]],
                                                                         [ids[0]], []]
    assert all(page["total"] == 5 for page in pages)
    # the body wins over the query string, per field
    mixed = client.post(reviews_path() + "?sort=helpful&pageSize=1", json={"sort": "newest"}).get_json()
    assert [item["id"] for item in mixed["items"]] == [ids[4]]


@pytest.mark.parametrize("query", ["sort=best", "page=0", "pageSize=101", "page=x"])
def test_bad_list_queries_are_refused(client, demo_catalogue, query):
    assert_error(client.get(reviews_path() + "?" + query), 422, "validation_error")


def test_a_query_key_the_list_does_not_know_is_ignored(client, demo_catalogue, alice):
    write_review(client, alice)
    assert client.get(reviews_path() + "?color=red").get_json() == client.get(reviews_path()).get_json()


@pytest.mark.parametrize("body", [{"sort": "best"}, {"page": "1"}, {"pageSize": 0}, {"color": "red"}])
def test_bad_list_bodies_are_refused(client, demo_catalogue, body):
    assert_error(client.post(reviews_path(), json=body), 422, "validation_error")


def test_the_get_is_shared_and_the_post_is_personal(client, demo_catalogue, alice, bob):
    review = write_review(client, alice)
    shared = client.get(reviews_path())
    assert shared.status_code == 200
    assert "public" in shared.headers["Cache-Control"] and "s-maxage" in shared.headers["Cache-Control"]
    assert shared.get_json()["items"][0]["myVote"] is None and shared.get_json()["items"][0]["isOwn"] is False
    client.post(reviews_path(suffix=f"/{review['id']}/vote"), json={"value": 1}, headers=bob)
    personal = client.post(reviews_path(), json={}, headers=bob)
    assert personal.headers["Cache-Control"] == "no-store"
    assert personal.get_json()["items"][0]["myVote"] == 1
    # the GET answers every caller alike, credentials or none
    assert client.get(reviews_path(), headers=bob).get_json()["items"][0]["myVote"] is None


def test_an_expired_or_revoked_token_is_refused_never_read_as_anonymous(client, demo_catalogue, alice, clock):
    write_review(client, alice)
    clock.shift(16 * 60)
    assert_error(client.post(reviews_path(), json={}, headers=alice), 401, "token_expired")
    assert_error(client.post(reviews_path(), json={}, headers={"Authorization": "Bearer nonsense"}), 401,
                 "invalid_token")


def test_a_blocked_account_writes_nothing(client, demo_catalogue, alice):
    from tests.api.accounts_helpers import bearer, make_account, sign_in

    account = make_account(demo_catalogue, "mallory@example.com")
    mallory = bearer(sign_in(demo_catalogue.test_client(), "mallory@example.com"))
    review = write_review(client, alice)
    block(demo_catalogue, account)
    assert_error(client.post(reviews_path(suffix="/create"), json={"text": TEXT, "rating": 5}, headers=mallory),
                 401, "token_revoked")
    assert_error(client.post(reviews_path(suffix=f"/{review['id']}/vote"), json={"value": -1}, headers=mallory),
                 401, "token_revoked")
    assert totals(demo_catalogue) == (1, 8)


def test_writes_need_an_account(client, demo_catalogue, viewer_headers, alice):
    review = write_review(client, alice)
    for headers in ({}, viewer_headers()):
        assert_error(client.post(reviews_path(suffix="/create"), json={"text": TEXT, "rating": 5}, headers=headers),
                     401, "unauthorized")
        assert_error(client.post(reviews_path(suffix=f"/{review['id']}/vote"), json={"value": 1}, headers=headers),
                     401, "unauthorized")
        assert_error(client.put(reviews_path(suffix=f"/{review['id']}"), json={"text": TEXT, "rating": 5},
                                headers=headers), 401, "unauthorized")
        assert_error(client.delete(reviews_path(suffix=f"/{review['id']}"), headers=headers), 401, "unauthorized")


def test_review_writes_and_votes_are_rate_limited(client, demo_catalogue, alice, bob):
    demo_catalogue.config.update(RATE_LIMIT_REVIEW_WRITES="2 per minute", RATE_LIMIT_REVIEW_VOTES="3 per minute")
    review = write_review(client, alice)
    path = reviews_path(suffix=f"/{review['id']}")
    assert client.put(path, json={"text": TEXT, "rating": 5}, headers=alice).status_code == 200
    limited = client.put(path, json={"text": TEXT, "rating": 6}, headers=alice)
    error = assert_error(limited, 429, "too_many_requests")
    assert error["message"] == "Слишком много изменений рецензий: попробуйте позже"
    assert int(limited.headers["Retry-After"]) > 0
    assert totals(demo_catalogue) == (1, 5)
    for value in (1, -1, 0):
        assert client.post(f"{path}/vote", json={"value": value}, headers=bob).status_code == 200
    error = assert_error(client.post(f"{path}/vote", json={"value": 1}, headers=bob), 429, "too_many_requests")
    assert error["message"] == "Слишком много голосов подряд: попробуйте позже"
    # counted per account: another one still writes
    write_review(client, bob)
