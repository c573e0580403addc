import type { DevicePush } from '@gatehouse/contract/client';
import { useAnnounce } from '@gatehouse/ui';
import { useCallback, useEffect, useRef, useState } from 'react';
import { deviceApi, streamEvents } from '../../api.ts';
import type { DeviceKey } from '../../device/deviceKey.ts';
import { startLive } from '../../device/live.ts';
import { t } from '../../messages/index.ts';

export type PushesState = {
  /** null until the first answer. */
  pushes: DevicePush[] | null;
  failed: boolean;
  /** The code of the last failed read (1403: the key proves no registration). */
  failedCode: number | undefined;
  refresh: () => Promise<void>;
};

/**
 * The device's pushes, kept fresh by the live channel and polling (device/live.ts); each new
 * pending push is announced once through the polite live region.
 */
export function usePushes(key: DeviceKey | undefined): PushesState {
  const [pushes, setPushes] = useState<DevicePush[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [failedCode, setFailedCode] = useState<number | undefined>();
  const announce = useAnnounce();
  const seen = useRef(new Set<string>());
  // A poll and a live event may overlap: only the latest read started is applied.
  const latest = useRef(0);

  const refresh = useCallback(async () => {
    if (!key) return;
    const mine = ++latest.current;
    const answer = await deviceApi.pushes(key);
    if (mine !== latest.current) return;
    if (!answer.ok) {
      setFailed(true);
      setFailedCode(answer.code);
      return;
    }
    setFailed(false);
    setFailedCode(undefined);
    const list = answer.data.pushes ?? [];
    const fresh = list.filter((p) => p.status === 'PENDING' && !seen.current.has(p.id));
    for (const p of list) seen.current.add(p.id);
    if (fresh.length === 1) announce(t('newRequestAnnouncement', fresh[0]!.username));
    else if (fresh.length > 1) announce(t('newRequestsAnnouncement', fresh.length));
    setPushes(list);
  }, [key, announce]);

  useEffect(() => {
    if (!key) return;
    return startLive({
      refresh,
      open: async (signal) => {
        const response = await deviceApi.openStream(key, signal);
        if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
        return streamEvents(response.body);
      },
    });
  }, [key, refresh]);

  return { pushes, failed, failedCode, refresh };
}
