"""``python -m toolcat``: the same command as the ``toolcat`` console script."""

from .cli import main

if __name__ == "__main__":
    main()
