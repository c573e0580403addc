// A plain page mounting the widget from the built bundle: no framework, no build step.
import { mount } from './signin.js';

const element = document.getElementById('signin');
const result = document.getElementById('result');
const remove = document.getElementById('unmount');

// ?journey=STEPUP shows the step-up journey for an already signed-in session.
const params = new URLSearchParams(window.location.search);
const journey = params.get('journey') === 'STEPUP' ? 'STEPUP' : 'LOGIN';
// ?screen=small or ?screen=large: the widget's appScreenSize.
const screenSize = params.get('screen');
// ?language=es: the widget's language (unset: the browser's languages choose).
const language = params.get('language');

const unmount = mount(element, {
  appId: 'EMBEDDEMO',
  appName: 'Embedding demo',
  journey,
  repPhone: '1-800-555-0199',
  businessSMSText: 'Gatehouse',
  sessionContext: 'EMBEDDEMO',
  headingLevel: 2,
  ...(screenSize === 'small' || screenSize === 'large' ? { appScreenSize: screenSize } : {}),
  ...(language && /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(language) ? { language } : {}),
  onFinish: (outcome) => {
    result.textContent =
      outcome.journey === 'STEPUP'
        ? `Step-up complete (status ${outcome.code}).`
        : `Signed in as ${outcome.data?.username ?? 'unknown'} (status ${outcome.code}).`;
  },
  onCancel: () => {
    result.textContent = 'Cancelled.';
  },
});

remove.addEventListener('click', () => {
  unmount();
  result.textContent = 'The widget was removed.';
  remove.disabled = true;
});
