"""The GM is stored once, as Campaign.gm: their Membership rows (role "gm") go, and with them
the role, since every membership left is a player's."""

from django.db import migrations, models


def drop_gm_memberships(apps, schema_editor):
    Membership = apps.get_model("characters", "Membership")
    Membership.objects.filter(role="gm").delete()


def restore_gm_memberships(apps, schema_editor):
    Campaign = apps.get_model("characters", "Campaign")
    Membership = apps.get_model("characters", "Membership")
    Membership.objects.bulk_create(
        [
            Membership(campaign=campaign, user_id=campaign.gm_id, role="gm")
            for campaign in Campaign.objects.all()
        ],
        # A GM who also held a membership of their own campaign keeps that one.
        ignore_conflicts=True,
    )


class Migration(migrations.Migration):
    dependencies = [("characters", "0013_catalog_version")]

    operations = [
        # A default first, so that undoing the removal can add the column back to filled rows.
        migrations.AlterField(
            model_name="membership",
            name="role",
            field=models.CharField(
                choices=[("gm", "GM"), ("player", "Player")], default="player", max_length=10
            ),
        ),
        migrations.RunPython(drop_gm_memberships, restore_gm_memberships),
        migrations.RemoveField(model_name="membership", name="role"),
    ]
