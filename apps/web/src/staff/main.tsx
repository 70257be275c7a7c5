import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { StaffApp } from './shell/staff-app';
import './staff.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StaffApp />
  </StrictMode>,
);
