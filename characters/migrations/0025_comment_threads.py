"""Comment threads between the GM and the player (issue 26). The GM's comments on a build
sent back for changes become threads its player can answer: those of every character back
with its player now become open threads, one message each, as they were shown on its rows."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def comments_to_threads(apps, schema_editor):
    alias = schema_editor.connection.alias
    Character = apps.get_model("characters", "Character")
    CommentThread = apps.get_model("characters", "CommentThread")
    ThreadMessage = apps.get_model("characters", "ThreadMessage")
    back = Character.objects.using(alias).filter(state="changes_requested")
    for character in back.prefetch_related("comments", "traits", "equipment"):
        comments = list(character.comments.all())
        if not comments:
            continue
        last = max(comment.version for comment in comments)
        traits = {(t.kind, t.name.casefold()): t.pk for t in character.traits.all()}
        items = {item.name.casefold(): item.pk for item in character.equipment.all()}
        for comment in sorted(comments, key=lambda c: (c.created_at, c.pk)):
            if comment.version != last:
                continue
            kind, _, name = comment.target.partition(":")
            rows = {(kind, k): pk for k, pk in items.items()} if kind == "equipment" else traits
            thread = CommentThread.objects.using(alias).create(
                character=character,
                target=comment.target,
                row_pk=rows.get((kind, name.casefold())) if comment.target else None,
                started_by_id=comment.author_id,
            )
            # The thread and its message are as old as the comment they were; a raw save
            # (as loaddata's) keeps the date auto_now_add would replace, since a message,
            # append-only from 0027 on, is never updated.
            ThreadMessage(
                thread=thread,
                author_id=comment.author_id,
                body=comment.body,
                version=last,
                created_at=comment.created_at,
            ).save_base(raw=True, using=alias)
            CommentThread.objects.using(alias).filter(pk=thread.pk).update(
                created_at=comment.created_at
            )


class Migration(migrations.Migration):
    dependencies = [
        ("characters", "0024_profile"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="notification",
            name="kind",
            field=models.CharField(
                choices=[
                    ("approved", "Approved"),
                    ("changes_requested", "Changes requested"),
                    ("experience", "Experience awarded"),
                    ("spend_accepted", "Request accepted"),
                    ("spend_refused", "Request refused"),
                    ("message", "Message"),
                    ("thread_resolved", "Thread resolved"),
                    ("thread_reopened", "Thread reopened"),
                ],
                max_length=20,
            ),
        ),
        migrations.CreateModel(
            name="CommentThread",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("target", models.CharField(blank=True, max_length=200)),
                ("row_pk", models.PositiveBigIntegerField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("resolved_at", models.DateTimeField(blank=True, null=True)),
                (
                    "character",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="threads",
                        to="characters.character",
                    ),
                ),
                (
                    "resolved_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "started_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["created_at", "id"],
            },
        ),
        migrations.CreateModel(
            name="ThreadMessage",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("body", models.TextField(max_length=5000)),
                ("version", models.PositiveIntegerField()),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "author",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "thread",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="messages",
                        to="characters.commentthread",
                    ),
                ),
            ],
            options={
                "ordering": ["created_at", "id"],
            },
        ),
        migrations.RunPython(comments_to_threads, migrations.RunPython.noop),
    ]
