"""The table's rendering: the table context and fragment, the Jinja2 environment, memo blocks, the reverse() cache."""
