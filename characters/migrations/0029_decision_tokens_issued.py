# The tokens kept so far were the ones decision forms posted, made by the page; now the server
# issues each one, for its user and decision. None of the old rows was issued, so none can be
# used: the table is made again rather than altered.

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('characters', '0028_outgoing_mail'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.DeleteModel(name='DecisionToken'),
        migrations.CreateModel(
            name='DecisionToken',
            fields=[
                ('token', models.CharField(max_length=64, primary_key=True, serialize=False)),
                ('kind', models.CharField(choices=[('review', 'Review'), ('award', 'Award'), ('points_grant', 'Points Grant'), ('spend_accept', 'Spend Accept'), ('spend_refuse', 'Spend Refuse'), ('session_start', 'Session Start')], max_length=20)),
                ('target', models.PositiveBigIntegerField()),
                ('issued_at', models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                ('used_at', models.DateTimeField(blank=True, null=True)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
        ),
    ]
