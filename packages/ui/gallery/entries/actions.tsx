import { useState } from 'react';
import {
  Alert,
  alertVariants,
  Button,
  buttonSizes,
  buttonVariants,
  Icon,
  InlineAlert,
  Link,
  Spinner,
  spinnerSizes,
} from '../../src/index.ts';
import { Caption, type GalleryEntry, Row, Section, Stack } from '../layout.tsx';

function LoadingButtonDemo() {
  const [loading, setLoading] = useState(false);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setLoading(true);
        setTimeout(() => setLoading(false), 2000);
      }}
    >
      <Button type="submit" loading={loading}>
        Sign in
      </Button>
    </form>
  );
}

function DismissibleAlerts() {
  const [shown, setShown] = useState<readonly string[]>(alertVariants);
  return (
    <Stack>
      {shown.map((variant) => (
        <Alert
          key={variant}
          variant={variant as (typeof alertVariants)[number]}
          title={`Dismissible ${variant}`}
          dismissible
          onDismiss={() => setShown((list) => list.filter((v) => v !== variant))}
        >
          Fades out over 150 ms, then is removed.
        </Alert>
      ))}
      {shown.length === 0 ? (
        <Button variant="secondary" onClick={() => setShown(alertVariants)}>
          Show them again
        </Button>
      ) : null}
    </Stack>
  );
}

function SpinnerDemo() {
  const [shown, setShown] = useState(false);
  return (
    <Stack>
      <Button
        variant="secondary"
        onClick={() => {
          setShown(true);
          setTimeout(() => setShown(false), 2000);
        }}
      >
        Show a spinner for 2 seconds
      </Button>
      <Spinner hidden={!shown} announce primaryText="Checking your code" />
    </Stack>
  );
}

export const actionEntries: GalleryEntry[] = [
  {
    slug: 'button',
    title: 'Button',
    render: () => (
      <>
        <Section title="Variants">
          <Caption>primary, secondary, tertiary, and our two further variants: link and danger.</Caption>
          <Row>
            {buttonVariants.map((variant) => (
              <Button key={variant} variant={variant}>
                {variant[0]?.toUpperCase()}
                {variant.slice(1)}
              </Button>
            ))}
          </Row>
        </Section>
        <Section title="Sizes">
          {buttonVariants.map((variant) => (
            <Row key={variant}>
              {buttonSizes.map((size) => (
                <Button key={size} variant={variant} size={size}>
                  {`${variant} ${size}`}
                </Button>
              ))}
            </Row>
          ))}
        </Section>
        <Section title="Types">
          <form onSubmit={(event) => event.preventDefault()} onReset={() => {}}>
            <Row>
              <Button type="button">Type button (default)</Button>
              <Button type="submit">Type submit</Button>
              <Button type="reset" variant="secondary">
                Type reset
              </Button>
            </Row>
          </form>
        </Section>
        <Section title="States">
          <Row>
            <Button disabled>Disabled</Button>
            <Button variant="secondary" disabled>
              Disabled secondary
            </Button>
            <Button loading>Loading</Button>
            <Button variant="secondary" loading>
              Loading secondary
            </Button>
          </Row>
          <Caption>Full width:</Caption>
          <Button fullWidth>Continue</Button>
        </Section>
        <Section title="Loading demo">
          <Caption>Submit: the button keeps focus, ignores a second submit and announces “Loading…”.</Caption>
          <LoadingButtonDemo />
        </Section>
      </>
    ),
  },
  {
    slug: 'alert',
    title: 'Alert and inline alert',
    render: () => (
      <>
        <Section title="Variants">
          <Stack>
            {alertVariants.map((variant) => (
              <Alert key={variant} variant={variant} title={`${variant} alert`}>
                {variant === 'critical' || variant === 'warning'
                  ? 'Role alert: read out at once.'
                  : 'Role status: read out politely.'}
              </Alert>
            ))}
            <Alert>Critical is the default, shown here without a title.</Alert>
          </Stack>
        </Section>
        <Section title="Inline">
          <Stack>
            {alertVariants.map((variant) => (
              <InlineAlert key={variant} variant={variant}>
                Inline {variant} message.
              </InlineAlert>
            ))}
          </Stack>
        </Section>
        <Section title="Dismissible">
          <DismissibleAlerts />
        </Section>
      </>
    ),
  },
  {
    slug: 'spinner',
    title: 'Spinner',
    render: () => (
      <>
        <Section title="Sizes">
          <Caption>Small hides the visible text; screen readers still get it.</Caption>
          <Row>
            {spinnerSizes.map((size) => (
              <Spinner key={size} size={size} takeFocus={false} />
            ))}
          </Row>
        </Section>
        <Section title="Colours">
          <Row>
            <Spinner color="neutral" takeFocus={false} primaryText="Neutral" />
            <Spinner color="inverse" takeFocus={false} primaryText="Inverse" />
          </Row>
        </Section>
        <Section title="Inline, custom texts and icon">
          <p>
            Sending your code <Spinner inline size="small" takeFocus={false} />
          </p>
          <Row>
            <Spinner inline takeFocus={false} primaryText="Verifying" secondaryText={null} />
            <Spinner takeFocus={false} icon={<Icon name="lock" size="large" />} primaryText="Custom icon" />
          </Row>
        </Section>
        <Section title="Announced, hidden and focus">
          <Caption>While shown it takes focus; when hidden focus returns to the button.</Caption>
          <SpinnerDemo />
        </Section>
      </>
    ),
  },
  {
    slug: 'link',
    title: 'Link',
    render: () => (
      <Section title="Links">
        <Stack>
          <Link href="#/link">A link in this window</Link>
          <Link href="#/link" newWindow>
            Terms and conditions
          </Link>
        </Stack>
      </Section>
    ),
  },
];
