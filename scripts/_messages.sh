# Sourced by the other scripts: the translations' catalogues (locale/*/LC_MESSAGES/*.po)
# compiled for Django, with GNU gettext's msgfmt (Debian's gettext, installed with apt when
# missing); without it the site speaks English only, and says so.
need_package /usr/bin/msgfmt gettext "the site's languages other than English"
if [ -x /usr/bin/msgfmt ] && [ -d locale ]; then
    .venv/bin/python manage.py compilemessages --ignore=.venv --verbosity 0
fi
