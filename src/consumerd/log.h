/* log.h - how ltt-consumerd reports what it cannot tell its session daemon. */
#ifndef LTT_CONSUMERD_LOG_H
#define LTT_CONSUMERD_LOG_H

/* One line on stderr (the session daemon's log), prefixed "ltt-consumerd: ". */
void cons_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* LTT_CONSUMERD_LOG_H */
