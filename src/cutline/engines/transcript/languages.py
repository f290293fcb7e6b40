"""The language tags Cutline transcribes (spec section 4.2); Whisper codes are the same."""

SUPPORTED_LANGUAGES: tuple[str, ...] = (
    "bg", "cs", "da", "de", "el", "en", "es", "et", "fi", "fr", "he", "hr", "hu",
    "it", "lt", "lv", "mt", "nl", "pl", "pt", "ro", "ru", "sk", "sl", "sv", "uk",
)  # fmt: skip
