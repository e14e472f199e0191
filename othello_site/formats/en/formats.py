"""English dates as the site has always shown them (ISO-like, 24-hour); the other
languages use Django's own formats for their locale (``FORMAT_MODULE_PATH``)."""

SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
