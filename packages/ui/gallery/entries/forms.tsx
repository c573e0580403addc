import { useState } from 'react';
import {
  Button,
  Checkbox,
  CodeInput,
  ErrorSummary,
  type ErrorSummaryItem,
  Field,
  fieldDescribedBy,
  RadioGroup,
  Select,
  type SelectItem,
  selectSizes,
  TextInput,
  textInputTypes,
} from '../../src/index.ts';
import { Caption, type GalleryEntry, Row, Section, Stack } from '../layout.tsx';

const methodOptions: SelectItem[] = [
  { text: 'Choose a method', value: '' },
  { text: 'Text message', value: 'sms' },
  { text: 'Voice call', value: 'voice' },
  { text: 'Fax (unavailable)', value: 'fax', disabled: true },
  {
    label: 'E-mail',
    options: [
      { text: 'Personal e-mail', value: 'email-personal' },
      { text: 'Work e-mail', value: 'email-work' },
    ],
  },
];

function SelectDemo() {
  const [value, setValue] = useState('sms');
  return (
    <Stack>
      <Select
        id="select-demo"
        label="Send my code by"
        options={methodOptions}
        value={value}
        onChange={setValue}
      />
      <p aria-live="polite">Selected value: {value || '(none)'}</p>
    </Stack>
  );
}

const accounts = ['Checking', 'Savings', 'Credit card'];
function SelectAllDemo() {
  const [checked, setChecked] = useState<string[]>(['Savings']);
  const [last, setLast] = useState('');
  const all = checked.length === accounts.length;
  const some = checked.length > 0 && !all;
  return (
    <fieldset className="gh-radio-group">
      <legend className="gh-radio-group__legend">Accounts to show</legend>
      <Checkbox
        id="acc-all"
        label="Select all"
        selectAll
        checked={all}
        indeterminate={some}
        onChange={(change) => {
          setLast(JSON.stringify(change));
          setChecked(change.checked ? accounts : []);
        }}
      />
      {accounts.map((account) => (
        <Checkbox
          key={account}
          id={`acc-${account.replace(/\s/g, '-').toLowerCase()}`}
          label={account}
          checked={checked.includes(account)}
          onChange={(change) => {
            setLast(JSON.stringify(change));
            setChecked((list) => (change.checked ? [...list, account] : list.filter((a) => a !== account)));
          }}
        />
      ))}
      <p aria-live="polite">Last event: {last || '(none yet)'}</p>
    </fieldset>
  );
}

function ErrorSummaryDemo() {
  const [errors, setErrors] = useState<ErrorSummaryItem[]>([]);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const found: ErrorSummaryItem[] = [];
        if (!username) found.push({ fieldId: 'es-username', message: 'Enter your username' });
        if (!password) found.push({ fieldId: 'es-password', message: 'Enter your password' });
        setErrors(found);
      }}
    >
      <ErrorSummary errors={errors} headingLevel={3} />
      <TextInput
        id="es-username"
        label="Username"
        required
        autoComplete="username"
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        error={errors.find((e) => e.fieldId === 'es-username')?.message}
      />
      <TextInput
        id="es-password"
        label="Password"
        type="password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.find((e) => e.fieldId === 'es-password')?.message}
      />
      <Button type="submit">Sign in</Button>
    </form>
  );
}

export const formEntries: GalleryEntry[] = [
  {
    slug: 'text-input',
    title: 'Text input',
    render: () => (
      <>
        <Section title="Types">
          <Stack>
            {textInputTypes.map((type) => (
              <TextInput
                key={type}
                id={`ti-${type}`}
                type={type}
                label={`Type ${type}`}
                hint={
                  type === 'ssn'
                    ? 'For example, 123-45-6789'
                    : type === 'zip'
                      ? '5 digits, or ZIP+4'
                      : undefined
                }
                autoComplete="off"
              />
            ))}
          </Stack>
        </Section>
        <Section title="Label indicators, hint and error">
          <Stack>
            <TextInput id="ti-required" label="Username" required autoComplete="username" />
            <TextInput id="ti-optional" label="Nickname" optional autoComplete="nickname" />
            <TextInput id="ti-hint" label="Employee ID" hint="It is on your badge" autoComplete="off" />
            <TextInput
              id="ti-error"
              label="E-mail address"
              type="email"
              error="Enter an e-mail address in the correct format, like name@example.com"
              defaultValue="name@"
              autoComplete="email"
            />
            <TextInput
              id="ti-disabled"
              label="Disabled"
              disabled
              defaultValue="Cannot change"
              autoComplete="off"
            />
          </Stack>
        </Section>
        <Section title="Sizes">
          <Stack>
            {selectSizes.map((size) => (
              <TextInput
                key={size}
                id={`ti-size-${size}`}
                size={size}
                label={`Size ${size}`}
                autoComplete="off"
              />
            ))}
          </Stack>
        </Section>
        <Section title="Password">
          <Caption>Show/Hide toggles visibility; submitting the form hides it again.</Caption>
          <form onSubmit={(event) => event.preventDefault()}>
            <TextInput
              id="ti-password-demo"
              label="Password"
              type="password"
              autoComplete="current-password"
            />
            <TextInput id="ti-password-shown" label="Password (shown)" type="password" revealed />
            <Button type="submit">Submit</Button>
          </form>
        </Section>
      </>
    ),
  },
  {
    slug: 'code-input',
    title: 'Code input',
    render: () => (
      <>
        <Section title="Security code">
          <Caption>Digits only, six at most; other keys and pasted non-digits are ignored.</Caption>
          <Stack>
            <CodeInput
              id="code-default"
              label="Security code"
              hint="We sent it to your phone ending 1234"
              required
            />
            <CodeInput
              id="code-error"
              label="Security code (error)"
              error="Enter the 6-digit code"
              defaultValue="12"
            />
            <CodeInput id="code-disabled" label="Security code (disabled)" disabled />
          </Stack>
        </Section>
      </>
    ),
  },
  {
    slug: 'select',
    title: 'Select',
    render: () => (
      <>
        <Section title="Options, groups and selected value">
          <SelectDemo />
        </Section>
        <Section title="States">
          <Stack>
            <Select id="sel-required" label="Required" required options={methodOptions} defaultValue="" />
            <Select id="sel-optional" label="Optional" optional options={methodOptions} />
            <Select
              id="sel-error"
              label="With an error"
              options={methodOptions}
              error="Choose how we send your code"
              defaultValue=""
            />
            <Select
              id="sel-disabled"
              label="Disabled"
              disabled
              options={methodOptions}
              defaultValue="voice"
            />
            <Select id="sel-full" label="Full width" fullWidth options={methodOptions} />
            <p id="sel-described">This text describes the next select.</p>
            <Select
              id="sel-aria"
              ariaLabel="Delivery method (aria label only)"
              describedBy="sel-described"
              options={methodOptions}
            />
          </Stack>
        </Section>
        <Section title="Sizes">
          <Stack>
            {selectSizes.map((size) => (
              <Select
                key={size}
                id={`sel-size-${size}`}
                label={`Size ${size}`}
                size={size}
                options={methodOptions}
              />
            ))}
          </Stack>
        </Section>
      </>
    ),
  },
  {
    slug: 'checkbox',
    title: 'Checkbox',
    render: () => (
      <>
        <Section title="States">
          <Stack>
            <Checkbox id="cb-unchecked" label="Unchecked" defaultChecked={false} />
            <Checkbox id="cb-checked" label="Checked" defaultChecked />
            <Checkbox id="cb-mixed" label="Mixed" indeterminate />
            <Checkbox id="cb-disabled" label="Disabled" disabled />
            <Checkbox
              id="cb-hint"
              label="Remember this device"
              hint="Do not choose this on a shared computer"
            />
            <Checkbox id="cb-error" label="I accept the terms" error="Accept the terms to continue" />
          </Stack>
        </Section>
        <Section title="Select all">
          <SelectAllDemo />
        </Section>
      </>
    ),
  },
  {
    slug: 'radio-group',
    title: 'Radio group',
    render: () => (
      <>
        <Section title="Vertical (default)">
          <RadioGroup
            id="rg-method"
            name="rg-method"
            legend="How should we send your code?"
            defaultValue="sms"
            options={[
              { value: 'sms', label: 'Text message' },
              { value: 'voice', label: 'Voice call', hint: 'We read the code twice' },
              { value: 'email', label: 'E-mail' },
              { value: 'post', label: 'Post', disabled: true },
            ]}
          />
        </Section>
        <Section title="Horizontal, with hint and error">
          <RadioGroup
            id="rg-yesno"
            name="rg-yesno"
            legend="Is this your device?"
            orientation="horizontal"
            hint="Choose yes only on a device you own"
            error="Choose yes or no"
            options={[
              { value: 'yes', label: 'Yes' },
              { value: 'no', label: 'No' },
            ]}
          />
        </Section>
      </>
    ),
  },
  {
    slug: 'field',
    title: 'Field',
    render: () => (
      <Section title="Field wrapper around any control">
        <Field
          id="field-dob"
          label="Date of birth"
          hint="For example, 27 3 1990"
          error="Enter a real date"
          required
        >
          <input
            id="field-dob"
            className="gh-control"
            aria-invalid="true"
            aria-required="true"
            autoComplete="bday"
            aria-describedby={fieldDescribedBy({ id: 'field-dob', hint: 'x', error: 'x' })}
          />
        </Field>
      </Section>
    ),
  },
  {
    slug: 'error-summary',
    title: 'Error summary',
    render: () => (
      <>
        <Section title="Shown">
          <ErrorSummary
            headingLevel={3}
            errors={[
              { fieldId: 'es-static-username', message: 'Enter your username' },
              { fieldId: 'es-static-code', message: 'Enter the 6-digit code' },
            ]}
          />
          <Row>
            <TextInput
              id="es-static-username"
              label="Username"
              error="Enter your username"
              autoComplete="off"
            />
            <CodeInput id="es-static-code" label="Security code" error="Enter the 6-digit code" />
          </Row>
        </Section>
        <Section title="In a form">
          <Caption>Submit empty: the summary appears, takes focus, and each link focuses its field.</Caption>
          <ErrorSummaryDemo />
        </Section>
      </>
    ),
  },
];
