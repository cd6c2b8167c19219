"""Reading a file's JSON text, for the character file and the ruleset file alike: bad JSON,
said where it is wrong, as the CharacterFileError both readers report it with.
"""

import json

from rules.words import Phrase, say

# What Python's JSON reader says is wrong, for a reader in another language.
JSON_ERRORS = {
    "Expecting value": say("Expecting value"),
    "Expecting property name enclosed in double quotes": say(
        "Expecting property name enclosed in double quotes"
    ),
    "Expecting ',' delimiter": say("Expecting ',' delimiter"),
    "Expecting ':' delimiter": say("Expecting ':' delimiter"),
    "Extra data": say("Extra data"),
    "Unterminated string starting at": say("Unterminated string starting at"),
    "Invalid control character at": say("Invalid control character at"),
    "Illegal trailing comma before end of object": say(
        "Illegal trailing comma before end of object"
    ),
    "Illegal trailing comma before end of array": say("Illegal trailing comma before end of array"),
}


class CharacterFileError(ValueError):
    """A file that cannot be read: bad JSON, unknown ruleset or level word, wrong types.
    `where` and `message` are the English the report and the commands print (the contract's
    words); `problem` is the message as a Phrase, and `phrase` the whole error, where and
    all, for characters.wording to say in the reader's language."""

    def __init__(self, where: str | Phrase, message: str | Phrase):
        where_text, text = str(where), str(message)
        super().__init__(f"{where_text}: {text}" if where_text else text)
        self.where = where_text
        self.message = text
        self.problem = message
        self.phrase = say("{where}: {problem}", where=where, problem=message) if where else message


def load_json(text: str | bytes):
    """Parsed JSON, or CharacterFileError saying what is wrong with the text and where."""
    try:
        return json.loads(text)
    except UnicodeDecodeError:
        raise CharacterFileError("", say("the file is not UTF-8 text")) from None
    except json.JSONDecodeError as error:
        raise CharacterFileError(
            say("line {line} column {column}", line=error.lineno, column=error.colno),
            say("not valid JSON ({error})", error=JSON_ERRORS.get(error.msg, error.msg)),
        ) from None
    # check_character never shows a traceback: json.loads raises a plain ValueError for an
    # integer longer than Python's 4,300-digit limit and RecursionError for lists or objects
    # nested too deeply.
    except ValueError:
        raise CharacterFileError(
            "", say("not readable JSON: a number has too many digits")
        ) from None
    except RecursionError:
        raise CharacterFileError(
            "", say("not readable JSON: lists or objects nest too deep")
        ) from None
