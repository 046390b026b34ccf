import dayjs from 'dayjs';

/** How the console writes a moment (lists, profiles, timelines, notices), whatever the language: 2026-11-27 12:15:32. */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** How the console writes a day: 2026-11-27. */
export const DATE_FORMAT = 'YYYY-MM-DD';

type Moment = string | number | Date;

export const formatDateTime = (at: Moment) => dayjs(at).format(DATE_TIME_FORMAT);
export const formatDate = (at: Moment) => dayjs(at).format(DATE_FORMAT);

/** The reader's IANA time zone (`Asia/Shanghai`): the clock a file the server writes puts its times on. */
export const readerTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
