import { type ConsoleAuditEvent, consoleTexts as t } from '@gatehouse/contract/client';
import { Alert, Button, Select, TextInput } from '@gatehouse/ui';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useAnnounce } from '../announcer.tsx';
import { consoleApi } from '../api.ts';
import { useSession } from '../session.tsx';
import { usePage } from '../usePage.ts';

/**
 * The audit trail of console actions: a supervisor's is everyone's, filtered by staff member,
 * customer or action; a representative's is their own (the server decides; the filter is not shown).
 */
export function AuditPage() {
  const { staff, ended } = useSession();
  const announce = useAnnounce();
  const supervisor = staff?.role === 'supervisor';
  const [filters, setFilters] = useState({ staff: '', customer: '', event: '' });
  const [events, setEvents] = useState<ConsoleAuditEvent[] | null>(null);
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const heading = usePage(t.auditTitle, !!failure);

  const load = useCallback(
    async (query: Record<string, string>, say: boolean) => {
      setBusy(true);
      const answer = await consoleApi.audit(query);
      setBusy(false);
      if (!answer.ok) {
        if (answer.signedOut) return ended(t.sessionEnded);
        setFailure(answer.message);
        return;
      }
      setFailure(undefined);
      setEvents(answer.data.events);
      if (say) announce(answer.data.events.length ? `${answer.data.events.length}` : t.auditEmpty);
    },
    [announce, ended],
  );
  useEffect(() => {
    void load({}, false);
  }, [load]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) void load(filters, true);
  };
  const eventOptions = [
    { value: '', text: t.filterAny },
    ...Object.entries(t.auditEvents).map(([value, text]) => ({ value, text })),
  ];

  return (
    <div className="console__page console__page--wide">
      <h1 ref={heading} tabIndex={-1}>
        {t.auditTitle}
      </h1>
      <p>{supervisor ? t.auditIntroSupervisor : t.auditIntroRepresentative}</p>
      {failure ? <Alert variant="critical">{failure}</Alert> : null}
      <form className="console__filters console__section" onSubmit={submit} noValidate>
        {supervisor ? (
          <TextInput
            id="filter-staff"
            label={t.filterStaff}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            value={filters.staff}
            onChange={(e) => setFilters({ ...filters, staff: e.target.value })}
          />
        ) : null}
        <TextInput
          id="filter-customer"
          label={t.filterCustomer}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={filters.customer}
          onChange={(e) => setFilters({ ...filters, customer: e.target.value })}
        />
        <Select
          id="filter-event"
          label={t.filterEvent}
          options={eventOptions}
          value={filters.event}
          onChange={(value) => setFilters({ ...filters, event: value })}
        />
        <div>
          <Button type="submit" loading={busy}>
            {t.filter}
          </Button>
        </div>
      </form>
      {events === null ? null : events.length === 0 ? (
        <p>{t.auditEmpty}</p>
      ) : (
        <div className="console__table-wrap">
          <table className="console__table" aria-labelledby="audit-caption">
            <caption id="audit-caption" className="gh-visually-hidden">
              {t.auditTitle}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t.eventTime}</th>
                <th scope="col">{t.auditStaff}</th>
                <th scope="col">{t.eventName}</th>
                <th scope="col">{t.auditCustomer}</th>
                <th scope="col">{t.auditDetail}</th>
                <th scope="col">{t.eventOutcome}</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list, replaced whole on each load
                <tr key={i}>
                  <td>{new Date(e.at).toLocaleString()}</td>
                  <td>{e.staff}</td>
                  <td>{t.auditEvents[e.event] ?? e.event}</td>
                  <td>{e.customer ?? ''}</td>
                  <td>{e.detail}</td>
                  <td>{e.outcome}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
