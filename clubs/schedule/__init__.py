"""Events on the calendar: ``scheduling`` (scheduled starts, sessions, check-in,
automatic rounds, the schedule sweep), ``calendar`` (the iCalendar feeds) and
``announce`` (what members are told, in their own language)."""
