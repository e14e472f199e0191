// Django's JavaScript catalogue (`{% url 'javascript-catalog' %}`, loaded by
// templates/base.html before any module): the globals the modules translate with.
declare function gettext(msgid: string): string;
declare function ngettext(singular: string, plural: string, count: number): string;
declare function pgettext(context: string, msgid: string): string;
declare function npgettext(context: string, singular: string, plural: string, count: number): string;
declare function interpolate(fmt: string, obj: Record<string, unknown>, named: true): string;
declare function interpolate(fmt: string, obj: unknown[], named?: false): string;
