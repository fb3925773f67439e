"""One exception type per kind of user mistake; the CLI prints the message and exits 2."""


class GrundyError(Exception):
    """Base of every error the toolkit reports to a user as one line."""


class CodeError(GrundyError, ValueError):
    """A code string that does not name a game."""


class SequenceFileError(GrundyError):
    """A sequence file that is missing, corrupt, or belongs to another code."""


class ValueRangeError(GrundyError):
    """A Grundy value larger than the engines support."""


class UsageError(GrundyError, ValueError):
    """An argument out of range (a depth below 1, an unknown engine, …)."""


class Interrupted(GrundyError):
    """A run stopped by Ctrl-C; the message says where its checkpoint is kept."""


class CertificateError(GrundyError):
    """Values that contradict the Guy–Smith theorem (a certified period that breaks, a false
    reading that holds to its window): a bug, or the values of another code."""


class StoreError(GrundyError):
    """A store that cannot be written (a full disk, an unwritable folder, another run writing it);
    what it held is kept."""
