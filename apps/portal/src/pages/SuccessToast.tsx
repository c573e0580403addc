import { Toast, ToastProvider } from '@gatehouse/ui';

/**
 * The toast shown on the login page after a password change. Loaded on demand, so the toast
 * machinery is not part of the login route's JavaScript.
 */
export function SuccessToast({ title, message }: { title: string; message: string }) {
  return (
    <ToastProvider>
      <Toast title={title} message={message} variant="confirm" />
    </ToastProvider>
  );
}
