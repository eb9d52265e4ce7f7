"""Forms: sign-up is Django's own ``UserCreationForm`` (fields username, password1, password2)."""

from django.contrib.auth.forms import UserCreationForm


class SignUpForm(UserCreationForm):
    """``UserCreationForm`` unchanged except for mobile-friendly input attributes.

    Field ids stay Django's defaults (``id_username``, ``id_password1``,
    ``id_password2``): the browser tests rely on them.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update(
            {"autocapitalize": "none", "autocomplete": "username", "autofocus": True}
        )
        for name in ("password1", "password2"):
            self.fields[name].widget.attrs["autocomplete"] = "new-password"
