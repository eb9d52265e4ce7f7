"""The moderators' role: the group 版主 holding ``moderation.moderate`` (an
admin puts moderators in it; they need not be staff or superusers)."""

from django.db import migrations

GROUP = "版主"


def forward(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    config = apps.get_app_config("moderation")
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)  # the permission exists before post_migrate
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(Permission.objects.get(codename="moderate", content_type__app_label="moderation"))


def backward(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(forward, backward)]
