"""Parked pushes made before their rows kept a member and a message get them back from the
task that carried them (``send_push``'s arguments: the event, the member, the message),
while the worker still keeps that task's row; they can then be sent again as later ones can.
Rows whose task is gone keep nothing and stay as they are."""

from django.db import migrations

SEND_PUSH = "project.push.tasks.send_push"


def parked_backfilled(apps, schema_editor):
    PushDelivery = apps.get_model("push", "PushDelivery")
    DBTaskResult = apps.get_model("django_tasks_database", "DBTaskResult")
    parked = list(PushDelivery.objects.filter(status="parked", user_id__isnull=True))
    if not parked:
        return
    # A delivery's key is its event's key and its device (``tasks._deliver``).
    by_event = {}
    for delivery in parked:
        event = delivery.key.removesuffix(f":s{delivery.subscription_id}")
        by_event.setdefault(event, []).append(delivery)
    tasks = DBTaskResult.objects.filter(
        task_path=SEND_PUSH, args_kwargs__args__0__in=list(by_event)
    ).values_list("args_kwargs", flat=True)
    for args_kwargs in tasks.iterator():
        event, user_id, payload = args_kwargs["args"][:3]
        for delivery in by_event.pop(event, []):
            PushDelivery.objects.filter(pk=delivery.pk).update(user_id=user_id, payload=payload)


class Migration(migrations.Migration):
    dependencies = [
        ("push", "0002_delivery_user_and_payload"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
    ]

    operations = [migrations.RunPython(parked_backfilled, migrations.RunPython.noop)]
