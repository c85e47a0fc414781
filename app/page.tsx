'use client';
import { LoupeApp } from './loupe-app.tsx';

export default function Page() {
  return <LoupeApp />;
}
