"""Issue 26, a conversation: the GM's comments are threads the player answers, on a trait, a
piece of equipment or the whole build; each side is told of the other's message, either
marks a thread resolved or reopens it, nobody else reads or writes one, and every message
stays on the character's audit trail, whose hash chain still holds."""

import types

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from characters.errors import NotAllowed, ServiceError
from characters.models import Character, CommentThread, Equipment, Notification, ReviewComment
from characters.selectors.integrity import audit_breaks
from characters.services.review import character_request_changes
from characters.services.rows import equipment_add, trait_remove, trait_update
from characters.services.threads import (
    comment_reply,
    comment_thread_resolve,
    comment_thread_start,
)
from tests.app.test_review import *  # noqa: F403
from tests.app.test_review import HTMX, submitted
from tests.app.test_review import as_role as as_role  # a fixture, not in its star list
from tests.support.builder_fixtures import *  # noqa: F403

pytestmark = pytest.mark.django_db


def builder(client, character) -> str:
    response = client.get(reverse("character_builder", args=[character.pk]))
    assert response.status_code == 200
    return response.content.decode()


def review_page(client, character) -> str:
    response = client.get(reverse("character_review", args=[character.pk]))
    assert response.status_code == 200
    return response.content.decode()


def reply_url(thread):
    return reverse("thread_reply", args=[thread.character_id, thread.pk])


def after_row(html: str, row_id: str) -> str:
    """What the builder shows after a row's form, up to the next row."""
    start = html.index(f'id="{row_id}"')
    end = html.index("</form>", start)
    following = html.find('class="trait-row', end)
    return html[end : following if following != -1 else None]


@pytest.fixture
def sword(character, player):
    return equipment_add(
        character=character, actor=player, expected_version=None, name="Sword", kind="weapon"
    )


# -- the "a reply reaches the GM" ------------------------------------------------------


def test_a_reply_reaches_the_gm(login, character, climbing, gm, player):
    gm_client, player_client = login(gm), login(player)
    start = gm_client.post(
        reverse("thread_start", args=[character.pk]),
        {"about": f"trait-{climbing.pk}", "body": "Why so low for a scout?", "page": "review"},
    )
    thread = CommentThread.objects.get()
    assert start.status_code == 302
    assert start["Location"] == reverse("character_review", args=[character.pk]) + (
        f"#thread-{thread.pk}"
    )
    assert (thread.target, thread.row_pk) == ("skill:Climbing", climbing.pk)
    told = Notification.objects.get(user=player)
    assert told.kind == Notification.Kind.MESSAGE
    assert told.message == "gm started a thread on Brogo's Climbing: “Why so low for a scout?”"

    # The player finds it under the row it is on, with a box to answer it.
    html = builder(player_client, character)
    beside = after_row(html, f"trait-{climbing.pk}")
    assert f'id="thread-{thread.pk}"' in beside
    assert "Why so low for a scout?" in beside
    assert f'action="{reply_url(thread)}"' in beside
    assert 'href="#thread-' in html[: html.index(f'id="trait-{climbing.pk}"')]  # linked above

    answered = player_client.post(
        reply_url(thread), {"body": "I was a sailor first.", "page": "builder"}
    )
    assert answered["Location"].endswith(f"/characters/{character.pk}/#thread-{thread.pk}")
    note = Notification.objects.get(user=gm)
    assert note.kind == Notification.Kind.MESSAGE
    assert note.message == "player answered on Brogo's Climbing: “I was a sailor first.”"
    assert note.read_at is None
    assert "I was a sailor first." in gm_client.get(reverse("notifications")).content.decode()
    page = review_page(gm_client, character)
    conversation = page[page.index('id="threads"') : page.index('id="review-form"')]
    assert conversation.index("Why so low for a scout?") < conversation.index(
        "I was a sailor first."
    )
    assert list(thread.messages.values_list("author__username", "body")) == [
        ("gm", "Why so low for a scout?"),
        ("player", "I was a sailor first."),
    ]


def test_a_thread_on_equipment_and_one_on_the_whole_build(login, character, sword, gm, player):
    on_sword = comment_thread_start(
        character=character, actor=gm, body="A sword at level one?", about=sword
    )
    on_build = comment_thread_start(character=character, actor=gm, body="Who is Brogo?")
    assert (on_sword.target, on_sword.row_pk) == ("equipment:Sword", sword.pk)
    assert (on_build.target, on_build.row_pk) == ("", None)

    html = builder(login(player), character)
    top = html[html.index('id="threads"') : html.index('id="details"')]
    assert "Talk with your GM" in top
    assert f'id="thread-{on_build.pk}"' in top and "On <bdi>the whole build</bdi>" in top
    assert f'<a href="#thread-{on_sword.pk}">On <bdi>Equipment: Sword</bdi></a>' in top
    assert f'id="thread-{on_sword.pk}"' in after_row(html, f"equipment-{sword.pk}")

    page = review_page(login(gm), character)
    assert "On <bdi>Equipment: Sword</bdi>" in page
    assert f'<a href="#thread-{on_sword.pk}">Thread open, 1 message</a>' in page  # on its row
    assert f'<option value="equipment-{sword.pk}">Equipment: Sword</option>' in page


def test_a_thread_on_the_whole_build_reads_as_german_says_it(login, character, gm, player):
    """German puts "the whole build" after "Zu" (on) in the dative: "Zu dem ganzen
    Charakter", not the nominative "Zu der ganze Charakter"; the answer's label too."""
    thread = comment_thread_start(character=character, actor=gm, body="Wer ist Brogo?")
    client = login(player)
    response = client.get(
        reverse("character_builder", args=[character.pk]), HTTP_ACCEPT_LANGUAGE="de"
    )
    html = response.content.decode()
    title = html[html.index(f'id="thread-{thread.pk}-title"') :]
    assert title.split("</h3>")[0].endswith("Zu <bdi>dem ganzen Charakter</bdi>")
    assert "Deine Antwort zu dem ganzen Charakter" in html
    assert "der ganze Charakter" not in html


def test_only_the_gm_starts_a_thread(login, character, climbing, player, mate):
    url = reverse("thread_start", args=[character.pk])
    for user in (player, mate):  # the GM's review page is nobody else's
        assert login(user).post(url, {"body": "Hello"}).status_code == 404
    with pytest.raises(NotAllowed):
        comment_thread_start(character=character, actor=player, body="Me?")
    assert not CommentThread.objects.exists()


# -- resolve and reopen --------------------------------------------------------------------------


def test_either_side_resolves_and_reopens(login, character, climbing, gm, player):
    thread = comment_thread_start(character=character, actor=gm, body="Raise it", about=climbing)
    player_client = login(player)
    resolve = reverse("thread_resolve", args=[character.pk, thread.pk])
    reopen = reverse("thread_reopen", args=[character.pk, thread.pk])

    assert player_client.post(resolve, {"page": "builder"}).status_code == 302
    thread.refresh_from_db()
    assert thread.is_resolved and thread.resolved_by == player
    assert Notification.objects.filter(user=gm).get().message == (
        "player marked the thread on Brogo's Climbing resolved."
    )
    html = builder(player_client, character)
    assert "Resolved by <bdi>player</bdi>" in html
    assert f'action="{reply_url(thread)}"' not in html  # a resolved thread takes no answer
    assert f'action="{reopen}"' in html
    with pytest.raises(ServiceError, match="resolved, so nothing was sent"):
        comment_reply(thread=thread, actor=gm, body="Wait")
    with pytest.raises(ServiceError, match="player marked this thread resolved already"):
        comment_thread_resolve(thread=thread, actor=gm)

    assert login(gm).post(reopen, {"page": "review"}).status_code == 302
    thread.refresh_from_db()
    assert not thread.is_resolved and thread.resolved_by is None
    assert Notification.objects.filter(user=player).first().message == (
        "gm reopened the thread on Brogo's Climbing."
    )
    with pytest.raises(ServiceError, match="open already"):
        comment_thread_resolve(thread=thread, actor=player, resolved=False)
    comment_reply(thread=thread, actor=gm, body="Wait")
    actions = list(
        character.events.filter(target="skill:Climbing").values_list("action", flat=True)
    )
    assert actions[-4:] == ["thread_started", "thread_resolved", "thread_reopened", "reply_added"]


# -- who may read and write ------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["mate", "outsider", "rival_gm", "anonymous"])
def test_nobody_else_reads_or_writes_a_thread(as_role, role, character, climbing, gm):
    thread = comment_thread_start(character=character, actor=gm, body="Secret", about=climbing)
    client = as_role(role)
    urls = [
        reply_url(thread),
        reverse("thread_resolve", args=[character.pk, thread.pk]),
        reverse("thread_reopen", args=[character.pk, thread.pk]),
        reverse("thread_start", args=[character.pk]),
    ]
    for url in urls:
        response = client.post(url, {"body": "Let me in"})
        if role == "anonymous":
            assert response.status_code == 302 and "/accounts/login/" in response["Location"]
        else:
            assert response.status_code == 404, url
    assert client.get(reverse("character_builder", args=[character.pk])).status_code in (302, 404)
    assert list(thread.messages.values_list("body", flat=True)) == ["Secret"]
    assert not CommentThread.objects.filter(resolved_at__isnull=False).exists()


def test_a_thread_of_another_character_is_not_found(login, character, gm, player, campaign):
    from characters.services.characters import character_create

    other = character_create(owner=player, name="Pip", campaign=campaign)
    thread = comment_thread_start(character=other, actor=gm, body="On Pip")
    url = reverse("thread_reply", args=[character.pk, thread.pk])  # Brogo's URL, Pip's thread
    assert login(player).post(url, {"body": "Hm"}).status_code == 404


def test_the_services_refuse_an_outsider(character, gm, outsider):
    thread = comment_thread_start(character=character, actor=gm, body="Hello")
    with pytest.raises(NotAllowed):
        comment_reply(thread=thread, actor=outsider, body="Hi")
    with pytest.raises(NotAllowed):
        comment_thread_resolve(thread=thread, actor=outsider)


# -- what is written -------------------------------------------------------------------------------


def test_a_message_is_escaped_wherever_it_shows(login, character, climbing, gm, player):
    thread = comment_thread_start(character=character, actor=gm, body="Why?", about=climbing)
    attack = '<script>alert("x")</script> & <b>bold</b>'
    login(player).post(reply_url(thread), {"body": attack})
    escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;"
    pages = [
        builder(login(player), character),
        review_page(login(gm), character),
        login(gm).get(reverse("character_audit", args=[character.pk])).content.decode(),
        login(gm).get(reverse("notifications")).content.decode(),
    ]
    for html in pages:
        assert '<script>alert("x")' not in html
        assert "<b>bold</b>" not in html
        assert "&lt;script&gt;" in html
    assert escaped in pages[0]


def test_a_write_without_its_csrf_token_is_refused(character, climbing, gm, player):
    from django.test import Client

    thread = comment_thread_start(character=character, actor=gm, body="Hello", about=climbing)
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    assert client.post(reply_url(thread), {"body": "Forged"}).status_code == 403
    html = builder(client, character)
    assert html.count('name="csrfmiddlewaretoken"') >= html.count('class="thread-reply"') > 0
    assert list(thread.messages.values_list("body", flat=True)) == ["Hello"]


def test_an_empty_or_long_message_is_refused(login, character, gm, player):
    thread = comment_thread_start(character=character, actor=gm, body="Hello")
    client = login(player)
    response = client.post(reply_url(thread), {"body": "   "}, **HTMX)
    assert response.status_code == 400
    assert response["HX-Retarget"] == "#alerts"
    assert "Write a message first: nothing was sent." in response.content.decode()
    response = client.post(reply_url(thread), {"body": "x" * 5001}, **HTMX)
    assert response.status_code == 400
    assert "at most 5000 characters" in response.content.decode()
    with pytest.raises(ServiceError, match="at most 5000 characters"):
        comment_thread_start(character=character, actor=gm, body="y" * 5001)
    assert thread.messages.count() == 1


def test_htmx_answers_with_the_thread_and_the_news_beside_it(login, character, climbing, gm):
    thread = comment_thread_start(character=character, actor=gm, body="Hello", about=climbing)
    response = login(character.owner).post(
        reply_url(thread), {"body": "Hi there", "page": "builder"}, **HTMX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith(f'<section id="thread-{thread.pk}" class="thread"')
    assert "Hi there" in html and 'name="page" value="builder"' in html
    assert '<div id="alerts" hx-swap-oob="innerHTML">' in html
    assert 'role="status"' in html and "Sent: gm is told." in html
    assert "HX-Trigger" not in response  # the build's version did not move

    start = login(gm).post(
        reverse("thread_start", args=[character.pk]),
        {"about": "", "body": "And the build?", "page": "review"},
        **HTMX,
    )
    html = start.content.decode()
    assert html.lstrip().startswith('<section id="threads" class="threads"')
    assert "And the build?" in html and 'id="thread-start"' in html
    assert "Thread started: player can answer it on the builder." in html


def test_a_thread_leaves_the_build_and_its_version_alone(character, climbing, gm, player):
    character.refresh_from_db()
    version = character.version
    thread = comment_thread_start(character=character, actor=gm, body="Hm", about=climbing)
    comment_reply(thread=thread, actor=player, body="Yes?")
    comment_thread_resolve(thread=thread, actor=player)
    character.refresh_from_db()
    assert character.version == version
    # The builder's next edit, made on the page loaded before the thread, is not stale.
    trait_update(trait=climbing, actor=player, expected_version=version, level=1)


# -- on the record ---------------------------------------------------------------------------------


def test_the_audit_trail_keeps_every_message_and_its_chain_holds(
    login, character, climbing, sword, gm, player
):
    thread = comment_thread_start(
        character=character, actor=gm, body="Why Climbing?", about=climbing
    )
    comment_reply(thread=thread, actor=player, body="Walls.\nMany walls.")
    comment_thread_resolve(thread=thread, actor=gm)
    comment_thread_start(character=character, actor=gm, body="Nice sword", about=sword)
    events = list(
        character.events.filter(action__in=["thread_started", "reply_added", "thread_resolved"])
        .order_by("id")
        .values_list("action", "target", "after")
    )
    assert events == [
        ("thread_started", "skill:Climbing", {"thread": thread.pk, "message": "Why Climbing?"}),
        ("reply_added", "skill:Climbing", {"thread": thread.pk, "message": "Walls.\nMany walls."}),
        ("thread_resolved", "skill:Climbing", {"thread": thread.pk}),
        ("thread_started", "equipment:Sword", {"thread": thread.pk + 1, "message": "Nice sword"}),
    ]
    assert list(audit_breaks()) == []

    html = login(player).get(reverse("character_audit", args=[character.pk])).content.decode()
    assert '<blockquote class="timeline-message">Walls.<br>Many walls.</blockquote>' in html
    # The titles are labels, capitalised as every label is (issue 39).
    assert "<strong>Reply added</strong>" in html and "<strong>Thread started</strong>" in html
    assert "Thread: " not in html  # the thread's id is for the record, not for reading


def test_a_review_comment_starts_a_thread_the_player_answers(
    login, character, climbing, gm, player
):
    submitted(character)
    character_request_changes(
        character=character,
        actor=gm,
        expected_version=None,
        comments=[("skill:Climbing", "Raise it to Good"), ("", "Looks thin.")],
    )
    on_climbing, on_build = CommentThread.objects.order_by("id")
    assert (on_climbing.target, on_climbing.row_pk) == ("skill:Climbing", climbing.pk)
    assert on_build.target == ""
    assert list(on_climbing.messages.values_list("body", flat=True)) == ["Raise it to Good"]
    event = character.events.get(action="comment_added", target="skill:Climbing")
    assert event.after == {"comment": "Raise it to Good", "thread": on_climbing.pk}

    html = builder(login(player), character)
    assert "Raise it to Good" in after_row(html, f"trait-{climbing.pk}")
    comment_reply(thread=on_climbing, actor=player, body="Done: Good now.")
    assert Notification.objects.filter(user=gm, kind=Notification.Kind.MESSAGE).count() == 1
    assert list(audit_breaks()) == []


def test_a_locked_build_keeps_its_threads_open_to_answer(login, character, climbing, gm, player):
    submitted(character)
    thread = comment_thread_start(character=character, actor=gm, body="Hello", about=climbing)
    html = builder(login(player), character)
    beside = after_row(html, f"trait-{climbing.pk}")
    # The row's own fieldset closes before the thread: its answer box is not disabled.
    assert beside.index("</fieldset>") < beside.index(f'id="thread-{thread.pk}"')
    assert "<fieldset" not in beside[beside.index(f'id="thread-{thread.pk}"') :]
    # The GM answers on the builder too, where the build is read only for them.
    assert f'action="{reply_url(thread)}"' in after_row(
        builder(login(gm), character), f"trait-{climbing.pk}"
    )


# -- a thread reads sensibly after its row changed ---------------------------------------------


def test_a_thread_on_a_renamed_or_removed_row_still_reads(login, character, climbing, sword, gm):
    thread = comment_thread_start(character=character, actor=gm, body="Why?", about=climbing)
    on_sword = comment_thread_start(character=character, actor=gm, body="Sharp?", about=sword)
    owner = character.owner
    trait_update(trait=climbing, actor=owner, expected_version=None, name="Scaling")
    html = builder(login(owner), character)
    assert "On <bdi>Skill: Scaling (was Climbing)</bdi>" in html
    assert f'id="thread-{thread.pk}"' in after_row(html, f"trait-{climbing.pk}")
    comment_reply(thread=thread, actor=owner, body="Renamed it.")
    assert character.events.filter(action="reply_added").get().target == "skill:Scaling"

    climbing.refresh_from_db()
    trait_remove(trait=climbing, actor=owner, expected_version=None)
    Equipment.objects.filter(pk=sword.pk).delete()
    for html in (builder(login(owner), character), review_page(login(gm), character)):
        assert "On <bdi>Skill: Climbing (removed)</bdi>" in html
        assert "On <bdi>Equipment: Sword (removed)</bdi>" in html
        assert "Sharp?" in html and "Renamed it." in html
    # Sitting at the top now, beside no row, and still answered.
    top = builder(login(owner), character)
    top = top[top.index('id="threads"') : top.index('id="details"')]
    assert f'id="thread-{on_sword.pk}"' in top
    comment_reply(thread=on_sword, actor=owner, body="Sold it.")
    assert list(audit_breaks()) == []


def test_a_thread_follows_its_row_through_undo(login, character, climbing, gm, player):
    """Undo and redo put rows back with their ids: the thread is on the same row again."""
    from characters.services.undo import character_undo_edit

    thread = comment_thread_start(character=character, actor=gm, body="Why?", about=climbing)
    trait_update(trait=climbing, actor=player, expected_version=None, level=2)
    character_undo_edit(character=character, actor=player, expected_version=None)
    html = builder(login(player), character)
    assert f'id="thread-{thread.pk}"' in after_row(html, f"trait-{climbing.pk}")


# -- cost ---------------------------------------------------------------------------------------


def test_the_builder_reads_threads_in_one_query_however_many(
    login, character, climbing, sword, gm, player
):
    client = login(player)
    url = reverse("character_builder", args=[character.pk])
    client.get(url)  # the catalogue, kept
    thread = comment_thread_start(character=character, actor=gm, body="One", about=climbing)
    with CaptureQueriesContext(connection) as one:
        client.get(url)
    for n in range(5):
        comment_reply(thread=thread, actor=player, body=f"Answer {n}")
        comment_thread_start(character=character, actor=gm, body=f"More {n}", about=sword)
    with CaptureQueriesContext(connection) as many:
        assert "More 4" in client.get(url).content.decode()
    assert len(many) == len(one)
    reads = [q["sql"] for q in many.captured_queries if "threadmessage" in q["sql"]]
    assert len(reads) == 1


def test_a_character_outside_a_campaign_has_no_threads(client, player):
    from characters.services.characters import character_create

    loner = character_create(owner=player, name="Loner", ruleset="mudge")
    client.force_login(player)
    with CaptureQueriesContext(connection) as queries:
        html = builder(client, loner)
    assert 'id="threads"' not in html
    assert not any("threadmessage" in q["sql"] for q in queries.captured_queries)
    with pytest.raises(NotAllowed):
        comment_thread_start(character=loner, actor=player, body="Anyone?")


# -- the migration: comments of builds back with their players become threads ------------------


def test_the_migration_makes_threads_of_the_comments_a_player_is_answering(character, climbing, gm):
    from importlib import import_module

    from django.apps import apps

    # As before the migration: two rounds of comments, the build back with its player.
    ReviewComment.objects.create(character=character, author=gm, body="First round", version=2)
    ReviewComment.objects.create(
        character=character, author=gm, target="skill:Climbing", body="Second round", version=4
    )
    Character.objects.filter(pk=character.pk).update(state="changes_requested", version=4)
    migration = import_module("characters.migrations.0025_comment_threads")
    migration.comments_to_threads(apps, types.SimpleNamespace(connection=connection))
    thread = CommentThread.objects.get()
    assert (thread.target, thread.row_pk, thread.started_by) == ("skill:Climbing", climbing.pk, gm)
    comment = ReviewComment.objects.get(body="Second round")
    message = thread.messages.get()
    assert (message.body, message.created_at) == ("Second round", comment.created_at)
