import type { ConsoleAuditEvent } from '@gatehouse/contract/client';
import { Alert, Button, Select, TextInput, useAnnounce } from '@gatehouse/ui';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { consoleApi } from '../api.ts';
import { dateTime, hasText, keysWith, t } from '../messages.ts';
import { useSession } from '../session.tsx';
import { usePage } from '../usePage.ts';

const eventPrefix = 'audit.event.';
/** An audit event's text; its name when the catalog has none. */
const eventText = (event: string) => {
  const key = `${eventPrefix}${event}`;
  return hasText(key) ? t(key) : event;
};

/**
 * The audit trail of console actions: a supervisor's is everyone's, filtered by staff member,
 * customer or action; a representative's is their own (the server decides; the filter is not shown).
 */
export function AuditPage() {
  const { staff, timedOut } = useSession();
  const announce = useAnnounce();
  const supervisor = staff?.role === 'supervisor';
  const [filters, setFilters] = useState({ staff: '', customer: '', event: '' });
  const [events, setEvents] = useState<ConsoleAuditEvent[] | null>(null);
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const heading = usePage(t('audit.title'), !!failure);

  const load = useCallback(
    async (query: Record<string, string>, say: boolean) => {
      setBusy(true);
      const answer = await consoleApi.audit(query);
      setBusy(false);
      if (!answer.ok) {
        if (answer.signedOut) return timedOut();
        setFailure(answer.message);
        return;
      }
      setFailure(undefined);
      setEvents(answer.data.events);
      const count = answer.data.events.length;
      if (say) announce(count ? t('audit.found', count) : t('audit.empty'));
    },
    [announce, timedOut],
  );
  useEffect(() => {
    void load({}, false);
  }, [load]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) void load(filters, true);
  };
  const eventOptions = [
    { value: '', text: t('audit.filterAny') },
    ...keysWith(eventPrefix).map((key) => ({ value: key.slice(eventPrefix.length), text: t(key) })),
  ];

  return (
    <div className="gh-shell__page console__page--wide">
      <h1 ref={heading} tabIndex={-1}>
        {t('audit.title')}
      </h1>
      <p>{supervisor ? t('audit.introSupervisor') : t('audit.introRepresentative')}</p>
      {failure ? <Alert variant="critical">{failure}</Alert> : null}
      <form className="console__filters gh-shell__section" onSubmit={submit} noValidate>
        {supervisor ? (
          <TextInput
            id="filter-staff"
            label={t('audit.filterStaff')}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            value={filters.staff}
            onChange={(e) => setFilters({ ...filters, staff: e.target.value })}
          />
        ) : null}
        <TextInput
          id="filter-customer"
          label={t('audit.filterCustomer')}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={filters.customer}
          onChange={(e) => setFilters({ ...filters, customer: e.target.value })}
        />
        <Select
          id="filter-event"
          label={t('audit.filterEvent')}
          options={eventOptions}
          value={filters.event}
          onChange={(value) => setFilters({ ...filters, event: value })}
        />
        <div>
          <Button type="submit" loading={busy}>
            {t('audit.filter')}
          </Button>
        </div>
      </form>
      {events === null ? null : events.length === 0 ? (
        <p>{t('audit.empty')}</p>
      ) : (
        <div className="console__table-wrap">
          <table className="console__table" aria-labelledby="audit-caption">
            <caption id="audit-caption" className="gh-visually-hidden">
              {t('audit.title')}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('common.eventTime')}</th>
                <th scope="col">{t('audit.staff')}</th>
                <th scope="col">{t('common.eventName')}</th>
                <th scope="col">{t('audit.customer')}</th>
                <th scope="col">{t('audit.detail')}</th>
                <th scope="col">{t('common.eventOutcome')}</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list, replaced whole on each load
                <tr key={i}>
                  <td>{dateTime(e.at)}</td>
                  <td>{e.staff}</td>
                  <td>{eventText(e.event)}</td>
                  <td>{e.customer ?? ''}</td>
                  <td>{e.detail}</td>
                  <td>{t('common.outcome', e.outcome)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
