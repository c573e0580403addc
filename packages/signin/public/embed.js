// A plain page mounting the widget from the built bundle: no framework, no build step.
import { mount } from './signin.js';

const element = document.getElementById('signin');
const result = document.getElementById('result');
const remove = document.getElementById('unmount');

const unmount = mount(element, {
  appId: 'EMBEDDEMO',
  appName: 'Embedding demo',
  sessionContext: 'EMBEDDEMO',
  headingLevel: 2,
  onFinish: (outcome) => {
    result.textContent = `Signed in as ${outcome.data?.username ?? 'unknown'} (status ${outcome.code}).`;
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
