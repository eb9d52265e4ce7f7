#!/usr/bin/env python
"""Django's command-line utility.

Every command's process first gets the web process's collector thresholds
(config.gc_tuning): ``simulate``, ``review`` and the embedded ``runserver``
run the engine's hot loops, which allocate as a render does (simulate ~11 %
more 升级 hands per CPU-second, ~6 % more 保皇, than with CPython's 700).
"""
import os
import sys


def main():
    from config.gc_tuning import tune as tune_gc

    tune_gc()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
