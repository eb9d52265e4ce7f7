"""The pages: ``clubs`` (club pages and POST endpoints), ``events`` (event pages
and the organiser's POST endpoints), ``schedule`` (schedule forms, score cards,
print pages, calendar feeds), ``forms``, and ``context`` (what an event page
shows, as plain data for the templates)."""
