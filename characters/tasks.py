"""Background tasks, run by `manage.py db_worker` (django-tasks-db, on Django's tasks
framework): settings.TASKS names the queue."""

from django.tasks import task

from characters.services import notifications, printing


@task()
def render_campaign_pack(job_id: int) -> None:
    printing.pack_job_run(job_id=job_id)


@task()
def send_notification_mail(
    address: str, message: str, character_pk: int, language: str = ""
) -> None:
    notifications.notification_mail_send(
        address=address, message=message, character_pk=character_pk, language=language
    )
