import { useRef, useState } from 'react';
import {
  type AnimationEnd,
  animate,
  Button,
  Card,
  ExpandCollapse,
  Heading,
  Icon,
  iconNames,
  iconSizes,
  iconsWithoutXsmall,
  List,
  ListItem,
  listInlineModes,
  listStyles,
  PageLayout,
  TextInput,
  TitleBlock,
  VisuallyHidden,
} from '../../src/index.ts';
import { Caption, type GalleryEntry, Row, Section, Stack } from '../layout.tsx';

function AnimationDemo() {
  const box = useRef<HTMLDivElement>(null);
  const [wide, setWide] = useState(false);
  const [last, setLast] = useState<AnimationEnd | null>(null);
  return (
    <Stack>
      <Button
        variant="secondary"
        onClick={() => {
          if (!box.current) return;
          const to = wide ? 64 : 256;
          setWide(!wide);
          animate(box.current, { property: 'width', to, onComplete: setLast });
        }}
      >
        Animate the width
      </Button>
      <div ref={box} className="gallery__box" />
      <p aria-live="polite">{last ? `Completed: ${last.property} = ${last.value}` : 'Not run yet'}</p>
    </Stack>
  );
}

const colourTokens = [
  'bg',
  'surface',
  'text',
  'text-muted',
  'border',
  'border-subtle',
  'primary',
  'primary-hover',
  'focus',
  'critical',
  'critical-subtle',
  'warning',
  'warning-subtle',
  'info',
  'info-subtle',
  'confirm',
  'confirm-subtle',
];

export const structureEntries: GalleryEntry[] = [
  {
    slug: 'list',
    title: 'List',
    render: () => (
      <>
        {listStyles.map((style) => (
          <Section key={style} title={`Style ${style}`}>
            {listInlineModes.map((inline) => (
              <div key={inline}>
                <Caption>inline {inline}</Caption>
                <List listStyle={style} inline={inline} aria-label={`${style} list, inline ${inline}`}>
                  <ListItem>Eight to twenty characters</ListItem>
                  <ListItem>One uppercase letter</ListItem>
                  <ListItem>One number</ListItem>
                </List>
              </div>
            ))}
          </Section>
        ))}
        <Section title="Nested list group (never inline)">
          <List listStyle="ordered">
            <ListItem>
              Open the app
              <List>
                <ListItem>Tap Settings</ListItem>
                <ListItem>Tap Security</ListItem>
              </List>
            </ListItem>
            <ListItem>Enter the code</ListItem>
          </List>
        </Section>
      </>
    ),
  },
  {
    slug: 'expand-collapse',
    title: 'Expand/collapse',
    render: () => (
      <>
        <Section title="Collapsed and expanded">
          <ExpandCollapse title="Why do we ask for this?" headingLevel={3}>
            We use your date of birth to confirm who you are.
          </ExpandCollapse>
          <ExpandCollapse title="What if I lost my phone?" headingLevel={3} defaultExpanded>
            Call us and we will block the old device.
          </ExpandCollapse>
          <ExpandCollapse title="Terms (expands when printed)" headingLevel={3} expandOnPrint>
            The terms are printed in full.
          </ExpandCollapse>
        </Section>
        <Section title="Motion">
          <Caption>
            Animates over 250 ms (expanding, collapsing); no animation when you prefer reduced motion.
          </Caption>
        </Section>
      </>
    ),
  },
  {
    slug: 'title-block',
    title: 'Title block',
    render: () => (
      <>
        <Section title="Levels and borders">
          <TitleBlock title="Level 3, no border" level={3} />
          <TitleBlock title="Level 4, top border" level={4} border="top" />
          <TitleBlock title="Level 5, bottom border" level={5} border="bottom" />
          <TitleBlock title="Level 6" level={6} />
        </Section>
        <Section title="Slots">
          <TitleBlock
            title="Your devices"
            level={3}
            border="bottom"
            metadata={<span>Last sign-in: today at 09:12</span>}
            actions={
              <>
                <Button size="small" variant="secondary">
                  Add a device
                </Button>
                <Button size="small" variant="danger">
                  Remove all
                </Button>
              </>
            }
            more={<p>You have 2 registered devices.</p>}
          />
        </Section>
      </>
    ),
  },
  {
    slug: 'card',
    title: 'Card',
    render: () => (
      <>
        <Section title="448 px (default)">
          <Card as="section" aria-label="Sign in card">
            <Heading level={3}>Sign in</Heading>
            <TextInput id="card-username" label="Username" autoComplete="username" />
            <Button fullWidth>Continue</Button>
          </Card>
        </Section>
        <Section title="400 px (code step)">
          <Card width={400}>
            <Heading level={3}>Enter your code</Heading>
            <p>We sent a code to your phone.</p>
          </Card>
        </Section>
      </>
    ),
  },
  {
    slug: 'layout',
    title: 'Page layout',
    render: () => (
      <Section title="Header, card, footer">
        <Caption>Below 512 px the card fills the screen; from 512 px it floats on a shaded page.</Caption>
        <div className="gallery__frame">
          <PageLayout
            mainId="layout-demo-main"
            embedded
            header={<strong>Gatehouse Bank</strong>}
            footer={<span>© Gatehouse Bank</span>}
          >
            <Card>
              <Heading level={3}>Sign in</Heading>
              <p>The login screen goes here.</p>
            </Card>
          </PageLayout>
        </div>
      </Section>
    ),
  },
  {
    slug: 'icon',
    title: 'Icon',
    render: () => (
      <>
        {iconSizes.map((size) => (
          <Section key={size} title={`Size ${size}`}>
            <Row>
              {iconNames
                .filter((name) => size !== 'xsmall' || !iconsWithoutXsmall.includes(name))
                .map((name) => (
                  <Icon key={name} name={name} size={size} label={name} />
                ))}
            </Row>
          </Section>
        ))}
        <Caption>Detailed icons are not drawn at xsmall: asking for one warns and draws it small.</Caption>
      </>
    ),
  },
  {
    slug: 'heading',
    title: 'Heading and visually hidden text',
    render: () => (
      <>
        <Section title="Headings">
          <Heading level={3}>Heading level 3</Heading>
          <Heading level={4}>Heading level 4</Heading>
          <Heading level={5}>Heading level 5</Heading>
          <Heading level={6}>Heading level 6</Heading>
        </Section>
        <Section title="Visually hidden">
          <Button variant="link">
            Change <VisuallyHidden>phone number</VisuallyHidden>
          </Button>
        </Section>
      </>
    ),
  },
  {
    slug: 'animation',
    title: 'Animation helper',
    render: () => (
      <Section title="animate()">
        <Caption>
          1000 ms, 60 frames per second, ease-in-out cubic; the completion carries the final value.
        </Caption>
        <AnimationDemo />
      </Section>
    ),
  },
  {
    slug: 'tokens',
    title: 'Design tokens',
    render: () => (
      <>
        <Section title="Colours">
          <ul className="gallery__swatches">
            {colourTokens.map((token) => (
              <li key={token} className="gallery__swatch">
                <span className="gallery__chip" style={{ background: `var(--gh-color-${token})` }} />
                --gh-color-{token}
              </li>
            ))}
          </ul>
        </Section>
        <Section title="Motion">
          <List>
            <ListItem>
              <code>--gh-duration-fade</code>: 150ms
            </ListItem>
            <ListItem>
              <code>--gh-duration-expand</code>: 250ms
            </ListItem>
            <ListItem>
              <code>--gh-duration-toast</code>: 300ms, <code>--gh-easing-toast</code>: ease
            </ListItem>
          </List>
        </Section>
      </>
    ),
  },
];
