import {
  Button,
  Dialog,
  DialogClose,
  Popover,
  Toast,
  ToastProvider,
  Tooltip,
  toastVariants,
  useToast,
} from '../../src/index.ts';
import { Caption, type GalleryEntry, Row, Section, Stack } from '../layout.tsx';

function ToastButtons() {
  const { show } = useToast();
  return (
    <Row>
      <Button
        onClick={() =>
          show({ title: 'Success', message: 'Password changed successfully', variant: 'confirm' })
        }
      >
        Show a toast
      </Button>
      <Button
        variant="secondary"
        onClick={() => show({ title: 'Heads up', message: 'Your session ends soon.' })}
      >
        Show an info toast
      </Button>
    </Row>
  );
}

export const overlayEntries: GalleryEntry[] = [
  {
    slug: 'toast',
    title: 'Toast',
    render: () => (
      <ToastProvider>
        <Section title="Trigger">
          <Caption>
            Closes after 5000 ms; hover or focus keeps it, then it closes 1000 ms after you leave; 300 ms
            ease.
          </Caption>
          <ToastButtons />
        </Section>
        <Section title="Variants (kept open)">
          <Caption>Shown in the notifications region at the bottom right.</Caption>
        </Section>
        {toastVariants.map((variant) => (
          <Toast
            key={variant}
            variant={variant}
            title={`${variant} toast`}
            message="A short message."
            timeout={Number.POSITIVE_INFINITY}
          />
        ))}
      </ToastProvider>
    ),
  },
  {
    slug: 'tooltip',
    title: 'Tooltip',
    render: () => (
      <Section title="Hover or focus">
        <Row>
          <Tooltip content="We only use it to send security codes">
            <Button variant="link">Why do we need your phone?</Button>
          </Tooltip>
          <Tooltip content="Opens on the right" side="right">
            <Button variant="secondary">Right</Button>
          </Tooltip>
        </Row>
      </Section>
    ),
  },
  {
    slug: 'popover',
    title: 'Popover',
    render: () => (
      <Section title="Click to open">
        <Popover trigger={<Button variant="secondary">Where is my code?</Button>} title="Your security code">
          <p>It is in the text message we just sent. It expires in 10 minutes.</p>
        </Popover>
      </Section>
    ),
  },
  {
    slug: 'dialog',
    title: 'Modal dialog',
    render: () => (
      <Section title="Click to open">
        <Caption>Focus is trapped inside; Escape closes it and focus returns to the button.</Caption>
        <Stack>
          <Dialog
            trigger={<Button variant="danger">Sign out</Button>}
            title="Sign out?"
            description="You will need your password to sign in again."
            footer={
              <>
                <DialogClose asChild>
                  <Button variant="secondary">Stay signed in</Button>
                </DialogClose>
                <DialogClose asChild>
                  <Button variant="danger">Sign out</Button>
                </DialogClose>
              </>
            }
          />
        </Stack>
      </Section>
    ),
  },
];
