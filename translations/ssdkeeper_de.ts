<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>Health</name>
    <message>
        <source>the last report</source>
        <translation>dem letzten Bericht</translation>
    </message>
    <message>
        <source>sectors have been reallocated to spare area</source>
        <translation>Sektoren wurden in den Reservebereich umgelagert</translation>
    </message>
    <message>
        <source>sectors are unreadable and waiting to be reallocated</source>
        <translation>Sektoren sind unlesbar und warten auf Neuzuweisung</translation>
    </message>
    <message>
        <source>sectors could not be corrected in offline scans</source>
        <translation>Sektoren konnten bei Offline-Prüfungen nicht korrigiert werden</translation>
    </message>
    <message>
        <source>reallocation events have happened</source>
        <translation>Neuzuweisungen sind erfolgt</translation>
    </message>
    <message>
        <source>The drive does not offer SMART, so its health cannot be judged.</source>
        <translation>Das Laufwerk bietet kein SMART, daher lässt sich sein Zustand nicht beurteilen.</translation>
    </message>
    <message>
        <source>No SMART data could be read from the drive, so its health cannot be judged.</source>
        <translation>Vom Laufwerk ließen sich keine SMART-Daten lesen, daher lässt sich sein Zustand nicht beurteilen.</translation>
    </message>
    <message>
        <source>The drive&apos;s own SMART self-assessment says it is FAILING.</source>
        <translation>Die eigene SMART-Selbstbewertung des Laufwerks meldet einen bevorstehenden AUSFALL.</translation>
    </message>
    <message>
        <source>Attribute {} is at or below its failure threshold now ({} ≤ {}).</source>
        <translation>Attribut {} liegt jetzt am oder unter seinem Ausfallschwellwert ({} ≤ {}).</translation>
    </message>
    <message>
        <source>Attribute {} reached its failure threshold in the past (worst {} ≤ {}).</source>
        <translation>Attribut {} hat seinen Ausfallschwellwert früher erreicht (schlechtester {} ≤ {}).</translation>
    </message>
    <message>
        <source>{} {} (attribute {}): the media is wearing or damaged.</source>
        <translation>{} {} (Attribut {}): das Medium verschleißt oder ist beschädigt.</translation>
    </message>
    <message>
        <source>CRC errors grew by {} since {} (from {} to {}): check the cable and connector (this is link trouble, not worn media).</source>
        <translation>Die CRC-Fehler sind seit {1} um {0} gestiegen (von {2} auf {3}): prüfen Sie Kabel und Stecker (das ist ein Verbindungsproblem, kein verschlissenes Medium).</translation>
    </message>
    <message>
        <source>{} interface CRC errors were counted: they point to the cable or connector, not to the media.</source>
        <translation>{} CRC-Fehler der Schnittstelle wurden gezählt: sie deuten auf Kabel oder Stecker hin, nicht auf das Medium.</translation>
    </message>
    <message>
        <source>NVMe critical warning: {}.</source>
        <translation>Kritische NVMe-Warnung: {}.</translation>
    </message>
    <message>
        <source>{} unrecovered media and data-integrity errors were reported.</source>
        <translation>{} nicht behobene Medien- und Datenintegritätsfehler wurden gemeldet.</translation>
    </message>
    <message>
        <source>The drive spent {} minutes above its warning temperature and {} above its critical temperature.</source>
        <translation>Das Laufwerk war {} Minuten über seiner Warntemperatur und {} über seiner kritischen Temperatur.</translation>
    </message>
    <message>
        <source>{} defects were added to the grown defect list.</source>
        <translation>{} Defekte wurden der Liste nachträglicher Defekte hinzugefügt.</translation>
    </message>
    <message>
        <source>{} uncorrected read/write/verify errors were counted.</source>
        <translation>{} nicht korrigierte Lese-/Schreib-/Prüffehler wurden gezählt.</translation>
    </message>
    <message>
        <source>{} % of the rated write endurance is used ({}): the drive is past its rated life and may switch to read-only.</source>
        <translation>{} % der spezifizierten Schreibausdauer sind verbraucht ({}): das Laufwerk hat seine spezifizierte Lebensdauer überschritten und kann in den Nur-Lese-Modus wechseln.</translation>
    </message>
    <message>
        <source>{} % of the rated write endurance is used ({}).</source>
        <translation>{} % der spezifizierten Schreibausdauer sind verbraucht ({}).</translation>
    </message>
    <message>
        <source>Available spare is {} %, below the drive&apos;s threshold of {} %.</source>
        <translation>Die verfügbare Reserve beträgt {} %, unter dem Schwellwert des Laufwerks von {} %.</translation>
    </message>
    <message>
        <source>Available spare is {} %, close to the drive&apos;s threshold of {} %.</source>
        <translation>Die verfügbare Reserve beträgt {} %, nahe am Schwellwert des Laufwerks von {} %.</translation>
    </message>
    <message>
        <source>{} new error-log entries since {} (from {} to {}).</source>
        <translation>{} neue Einträge im Fehlerprotokoll seit {} (von {} auf {}).</translation>
    </message>
    <message>
        <source>The drive&apos;s error log holds {} entries; watch whether it grows.</source>
        <translation>Das Fehlerprotokoll des Laufwerks enthält {} Einträge; beobachten Sie, ob es wächst.</translation>
    </message>
    <message>
        <source>Temperature {} °C is at or above the drive&apos;s critical limit of {} °C.</source>
        <translation>Die Temperatur von {} °C liegt an oder über der kritischen Grenze des Laufwerks von {} °C.</translation>
    </message>
    <message>
        <source>Temperature {} °C is at or above the drive&apos;s warning limit of {} °C.</source>
        <translation>Die Temperatur von {} °C liegt an oder über der Warngrenze des Laufwerks von {} °C.</translation>
    </message>
    <message>
        <source>The most recent device self-test reported errors.</source>
        <translation>Der letzte Selbsttest des Geräts hat Fehler gemeldet.</translation>
    </message>
    <message>
        <source>Known firmware issue (smartctl drive database): {}</source>
        <translation>Bekanntes Firmware-Problem (Laufwerksdatenbank von smartctl): {}</translation>
    </message>
</context>
<context>
    <name>Maintenance</name>
    <message>
        <source>{} holds the running system&apos;s root filesystem; refusing to erase it</source>
        <translation>{} enthält das Wurzeldateisystem des laufenden Systems; es wird nicht gelöscht</translation>
    </message>
    <message>
        <source>{} at {}</source>
        <translation>{} unter {}</translation>
    </message>
    <message>
        <source>{} on {}</source>
        <translation>{} auf {}</translation>
    </message>
    <message>
        <source>{} is in use: mounted {}; unmount it first</source>
        <translation>{} wird verwendet: eingehängt {}; hängen Sie es zuerst aus</translation>
    </message>
    <message>
        <source>{} is in use by {}; close those first</source>
        <translation>{} wird von {} verwendet; schließen Sie diese zuerst</translation>
    </message>
    <message>
        <source>{} is read-only</source>
        <translation>{} ist schreibgeschützt</translation>
    </message>
    <message>
        <source>the confirmation &apos;{}&apos; does not match the model &apos;{}&apos;: nothing was erased</source>
        <translation>die Bestätigung „{}“ stimmt nicht mit dem Modell „{}“ überein: nichts wurde gelöscht</translation>
    </message>
</context>
<context>
    <name>OverviewPage</name>
    <message>
        <source>Yes</source>
        <translation>Ja</translation>
    </message>
    <message>
        <source>No</source>
        <translation>Nein</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>GOOD</source>
        <translation>GUT</translation>
    </message>
    <message>
        <source>CAUTION</source>
        <translation>VORSICHT</translation>
    </message>
    <message>
        <source>BAD</source>
        <translation>SCHLECHT</translation>
    </message>
    <message>
        <source>UNKNOWN</source>
        <translation>UNBEKANNT</translation>
    </message>
    <message>
        <source>TRIM reached the drive</source>
        <translation>TRIM hat das Laufwerk erreicht</translation>
    </message>
    <message>
        <source>TRIM did NOT reach the drive</source>
        <translation>TRIM hat das Laufwerk NICHT erreicht</translation>
    </message>
    <message>
        <source>Inconclusive</source>
        <translation>Nicht eindeutig</translation>
    </message>
    <message>
        <source>No verdict</source>
        <translation>Kein Ergebnis</translation>
    </message>
    <message>
        <source>%1 holds the running system; it is benchmarked only with a test file.</source>
        <translation>%1 enthält das laufende System; es wird nur mit einer Testdatei gemessen.</translation>
    </message>
    <message>
        <source>%1 is in use (%2); unmount it to benchmark the whole device.</source>
        <translation>%1 wird verwendet (%2); hängen Sie es aus, um das ganze Gerät zu messen.</translation>
    </message>
    <message>
        <source>%1 is read-only.</source>
        <translation>%1 ist schreibgeschützt.</translation>
    </message>
    <message>
        <source>unallocated</source>
        <translation>nicht zugeordnet</translation>
    </message>
    <message>
        <source>spare (you)</source>
        <translation>Reserve (eigene)</translation>
    </message>
    <message>
        <source>factory spare</source>
        <translation>Werksreserve</translation>
    </message>
    <message>
        <source>could not create %1: %2</source>
        <translation>%1 konnte nicht erstellt werden: %2</translation>
    </message>
    <message>
        <source>%1, %2, compression %3, %4</source>
        <translation>%1, %2, Kompression %3, %4</translation>
    </message>
    <message>
        <source>%1 MB/s</source>
        <translation>%1 MB/s</translation>
    </message>
    <message>
        <source>%1 IOPS</source>
        <translation>%1 IOPS</translation>
    </message>
    <message>
        <source>×%1</source>
        <translation>×%1</translation>
    </message>
</context>
<context>
    <name>SpareArea</name>
    <message>
        <source>{} holds the running system (&quot;/&quot; is mounted from it): boot from another system, e.g. a live USB stick, to change its partitions</source>
        <translation>{} enthält das laufende System („/“ ist von dort eingehängt): starten Sie ein anderes System, z. B. von einem Live-USB-Stick, um seine Partitionen zu ändern</translation>
    </message>
    <message>
        <source>{} is read-only</source>
        <translation>{} ist schreibgeschützt</translation>
    </message>
    <message>
        <source>{} has no partition table: spare area is made by shrinking the last partition</source>
        <translation>{} hat keine Partitionstabelle: Reservebereich entsteht durch Verkleinern der letzten Partition</translation>
    </message>
    <message>
        <source>{} has a &quot;{}&quot; partition table; only GPT and MBR are supported</source>
        <translation>{} hat eine Partitionstabelle vom Typ „{}“; nur GPT und MBR werden unterstützt</translation>
    </message>
    <message>
        <source>{} has no partitions: all of it is unallocated already</source>
        <translation>{} hat keine Partitionen: alles ist bereits frei</translation>
    </message>
    <message>
        <source>{} % spare leaves no room for {}</source>
        <translation>{} % Reserve lassen keinen Platz für {}</translation>
    </message>
    <message>
        <source>{} is mounted at {}: {} shrinks only unmounted; {} (growing works while mounted)</source>
        <translation>{} ist unter {} eingehängt: {} lässt sich nur ausgehängt verkleinern; {} (Vergrößern geht auch eingehängt)</translation>
    </message>
    <message>
        <source>choose &quot;Unmount, shrink and remount&quot; (op apply --unmount), or unmount it yourself</source>
        <translation>wählen Sie „Aushängen, verkleinern und wieder einhängen“ (op apply --unmount) oder hängen Sie es selbst aus</translation>
    </message>
    <message>
        <source>it is mounted in {} places: unmount it and SSD Keeper will shrink it</source>
        <translation>es ist an {} Stellen eingehängt: hängen Sie es aus, dann verkleinert SSD Keeper es</translation>
    </message>
    <message>
        <source>{} ({}) is in use and cannot be unmounted for the shrink: close what holds it open ({})</source>
        <translation>{} ({}) wird verwendet und kann für das Verkleinern nicht ausgehängt werden: schließen Sie, was es offen hält ({})</translation>
    </message>
    <message>
        <source>{} is unmounted from {} for the shrink and mounted there again with the same options; a crash in between is finished or rolled back from the journal</source>
        <translation>{} wird für das Verkleinern aus {} ausgehängt und danach mit denselben Optionen wieder dort eingehängt; ein Absturz dazwischen wird anhand des Protokolls abgeschlossen oder zurückgerollt</translation>
    </message>
    <message>
        <source>{} is mounted at {}: ntfs shrinks only unmounted; unmount it and SSD Keeper will shrink it</source>
        <translation>{} ist unter {} eingehängt: ntfs lässt sich nur ausgehängt verkleinern; hängen Sie es aus, dann verkleinert SSD Keeper es</translation>
    </message>
    <message>
        <source>{} is mounted at {}: ntfsresize works only on unmounted NTFS; unmount it first</source>
        <translation>{} ist unter {} eingehängt: ntfsresize arbeitet nur mit ausgehängtem NTFS; hängen Sie es zuerst aus</translation>
    </message>
    <message>
        <source>{} holds btrfs, which resizes only while mounted: mount it first</source>
        <translation>{} enthält btrfs, das sich nur eingehängt in der Größe ändern lässt: hängen Sie es zuerst ein</translation>
    </message>
    <message>
        <source>{} already leaves {} unallocated at the end: nothing to change</source>
        <translation>{} lässt am Ende bereits {} frei: nichts zu ändern</translation>
    </message>
    <message>
        <source>the used space of {} could not be read</source>
        <translation>der belegte Platz von {} konnte nicht gelesen werden</translation>
    </message>
    <message>
        <source>{} is too full for {} % spare: it would get {}, but {}; {}</source>
        <translation>{} ist zu voll für {} % Reserve: es bekäme {}, aber {}; {}</translation>
    </message>
    <message>
        <source>{} will be {:.0f} % full afterwards ({} in use in {})</source>
        <translation>{} ist danach zu {:.0f} % voll ({} belegt von {})</translation>
    </message>
    <message>
        <source>{} does not accept discards (TRIM): the space is left unallocated, but the controller is not told it is free</source>
        <translation>{} nimmt keine Discards (TRIM) an: der Platz bleibt frei, aber der Controller erfährt nicht, dass er frei ist</translation>
    </message>
    <message>
        <source>factory over-provisioning is unknown for this drive</source>
        <translation>die Werksreserve (Over-Provisioning) dieses Laufwerks ist unbekannt</translation>
    </message>
</context>
<context>
    <name>ssdk::app</name>
    <message>
        <source>Loop</source>
        <translation>Loop</translation>
    </message>
    <message>
        <source>Device mapper</source>
        <translation>Device Mapper</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Unbekannt</translation>
    </message>
    <message>
        <source>MBR (DOS)</source>
        <translation>MBR (DOS)</translation>
    </message>
    <message>
        <source>The device reports a size of 0 bytes: no medium, or not set up yet.</source>
        <translation>Das Gerät meldet eine Größe von 0 Bytes: kein Medium, oder noch nicht eingerichtet.</translation>
    </message>
    <message>
        <source>No partition table — the whole device holds a %1 filesystem.</source>
        <translation>Keine Partitionstabelle – das ganze Gerät enthält ein %1-Dateisystem.</translation>
    </message>
    <message>
        <source>No partition table — the whole device holds a %1 filesystem, mounted at %2.</source>
        <translation>Keine Partitionstabelle – das ganze Gerät enthält ein %1-Dateisystem, eingehängt unter %2.</translation>
    </message>
    <message>
        <source>No partition table — the whole device is mounted at %1.</source>
        <translation>Keine Partitionstabelle – das ganze Gerät ist unter %1 eingehängt.</translation>
    </message>
    <message>
        <source>No partitions — the whole device is used by %1.</source>
        <translation>Keine Partitionen – das ganze Gerät wird von %1 verwendet.</translation>
    </message>
    <message>
        <source>No partitions — the whole device is unallocated.</source>
        <translation>Keine Partitionen – das ganze Gerät ist nicht zugeordnet.</translation>
    </message>
    <message>
        <source>Lab drive “%1”</source>
        <translation>Testlaufwerk „%1“</translation>
    </message>
    <message>
        <source>System disk: holds the root filesystem</source>
        <translation>Systemlaufwerk: enthält das Wurzeldateisystem</translation>
    </message>
    <message>
        <source>In use: mounted or held by another device</source>
        <translation>Belegt: eingehängt oder von einem anderen Gerät gehalten</translation>
    </message>
    <message>
        <source>%1 (%2 bytes)</source>
        <translation>%1 (%2 Bytes)</translation>
    </message>
    <message>
        <source>1 hour</source>
        <translation>1 Stunde</translation>
    </message>
    <message>
        <source>%1 hours</source>
        <translation>%1 Stunden</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 Tage</translation>
    </message>
    <message>
        <source>%1 years</source>
        <translation>%1 Jahre</translation>
    </message>
</context>
<context>
    <name>ssdk::app::AnalysisChart</name>
    <message>
        <source>4K random write QD32 — IOPS every second (log scale)</source>
        <translation>4K zufälliges Schreiben QD32 – IOPS pro Sekunde (logarithmisch)</translation>
    </message>
    <message>
        <source>Time (s)</source>
        <translation>Zeit (s)</translation>
    </message>
    <message>
        <source>IOPS</source>
        <translation>IOPS</translation>
    </message>
    <message>
        <source>%1: steady state not judged — SNIA PTS needs 5 rounds of %2 s, the run has %3 s</source>
        <translation>%1: Gleichgewichtszustand nicht bewertet – SNIA PTS braucht 5 Runden zu %2 s, der Lauf hat %3 s</translation>
    </message>
    <message>
        <source>%1: %2 (last 5 rounds of %3 s: mean %4 IOPS, range %5%, slope %6%)</source>
        <translation>%1: %2 (letzte 5 Runden zu %3 s: Mittel %4 IOPS, Spanne %5 %, Steigung %6 %)</translation>
    </message>
    <message>
        <source>steady state reached</source>
        <translation>Gleichgewichtszustand erreicht</translation>
    </message>
    <message>
        <source>not steady</source>
        <translation>nicht gleichmäßig</translation>
    </message>
    <message>
        <source>SLC cache probe — sequential write, %1</source>
        <translation>SLC-Cache-Test – sequenzielles Schreiben, %1</translation>
    </message>
    <message>
        <source>Write MB/s</source>
        <translation>Schreiben MB/s</translation>
    </message>
    <message>
        <source>MB/s</source>
        <translation>MB/s</translation>
    </message>
    <message>
        <source>TRIM recovery — sequential write, %1</source>
        <translation>Erholung durch TRIM – sequenzielles Schreiben, %1</translation>
    </message>
    <message>
        <source>Sequential write MB/s</source>
        <translation>Sequenzielles Schreiben MB/s</translation>
    </message>
    <message>
        <source>Fresh</source>
        <translation>Frisch</translation>
    </message>
    <message>
        <source>Dirty (after torture)</source>
        <translation>Verbraucht (nach Dauerlast)</translation>
    </message>
    <message>
        <source>After TRIM</source>
        <translation>Nach TRIM</translation>
    </message>
    <message>
        <source>After TRIM the drive writes at %1% of its fresh speed (dirty: %2%)</source>
        <translation>Nach TRIM schreibt das Laufwerk mit %1 % seiner Neugeschwindigkeit (verbraucht: %2 %)</translation>
    </message>
    <message>
        <source>The result lacks a fresh, dirty or after-TRIM measurement</source>
        <translation>Dem Ergebnis fehlt eine Messung im frischen, verbrauchten oder getrimmten Zustand</translation>
    </message>
    <message>
        <source>Written (GiB)</source>
        <translation>Geschrieben (GiB)</translation>
    </message>
    <message>
        <source>Cache %1</source>
        <translation>Cache %1</translation>
    </message>
    <message>
        <source>Cache: %1 written at %2 MB/s, then %3 MB/s</source>
        <translation>Cache: %1 mit %2 MB/s geschrieben, danach %3 MB/s</translation>
    </message>
    <message>
        <source>No drop found: the cache is larger than the %1 written (%2 MB/s throughout)</source>
        <translation>Kein Einbruch gefunden: der Cache ist größer als die geschriebenen %1 (durchgehend %2 MB/s)</translation>
    </message>
    <message>
        <source>Benchmark analysis chart</source>
        <translation>Diagramm der Messanalyse</translation>
    </message>
</context>
<context>
    <name>ssdk::app::DriveDelegate</name>
    <message>
        <source>LAB</source>
        <translation>TEST</translation>
    </message>
    <message>
        <source>SYSTEM</source>
        <translation>SYSTEM</translation>
    </message>
    <message>
        <source>lab drive</source>
        <translation>Testlaufwerk</translation>
    </message>
    <message>
        <source>%1 MB/s</source>
        <translation>%1 MB/s</translation>
    </message>
</context>
<context>
    <name>ssdk::app::DriveListModel</name>
    <message>
        <source>lab drive</source>
        <translation>Testlaufwerk</translation>
    </message>
    <message>
        <source>system disk</source>
        <translation>Systemlaufwerk</translation>
    </message>
    <message>
        <source>in use</source>
        <translation>belegt</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>untätig</translation>
    </message>
    <message>
        <source>%1 MB/s now</source>
        <translation>jetzt %1 MB/s</translation>
    </message>
    <message>
        <source>Lab drive %1</source>
        <translation>Testlaufwerk %1</translation>
    </message>
</context>
<context>
    <name>ssdk::app::EraseWizard</name>
    <message>
        <source>Secure erase</source>
        <translation>Sicheres Löschen</translation>
    </message>
    <message>
        <source>Choose the erase method</source>
        <translation>Löschverfahren wählen</translation>
    </message>
    <message>
        <source>Methods are listed strongest first. Unavailable ones say why.</source>
        <translation>Die Verfahren sind nach Stärke geordnet. Nicht verfügbare nennen den Grund.</translation>
    </message>
    <message>
        <source>Reading what %1 supports…</source>
        <translation>Es wird gelesen, was %1 unterstützt …</translation>
    </message>
    <message>
        <source>Suspend the machine for 5 s to unfreeze the drive</source>
        <translation>Rechner für 5 s in Bereitschaft versetzen, um das Laufwerk zu entsperren</translation>
    </message>
    <message>
        <source>Confirm: every byte on this drive will be destroyed</source>
        <translation>Bestätigen: jedes Byte auf diesem Laufwerk wird vernichtet</translation>
    </message>
    <message>
        <source>Erasing</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Certificate</source>
        <translation>Nachweis</translation>
    </message>
    <message>
        <source>Save certificate…</source>
        <translation>Nachweis speichern …</translation>
    </message>
    <message>
        <source>Save certificate</source>
        <translation>Nachweis speichern</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>Abgelehnt: %1</translation>
    </message>
    <message>
        <source>This erases &lt;b&gt;all data&lt;/b&gt; on %1.&lt;br&gt;&lt;br&gt;Type the model &lt;b&gt;%2&lt;/b&gt; to confirm:</source>
        <translation>Dies löscht &lt;b&gt;alle Daten&lt;/b&gt; auf %1.&lt;br&gt;&lt;br&gt;Geben Sie zur Bestätigung das Modell &lt;b&gt;%2&lt;/b&gt; ein:</translation>
    </message>
    <message>
        <source>Unfreeze the drive</source>
        <translation>Laufwerk entsperren</translation>
    </message>
    <message>
        <source>The drive&apos;s security is frozen: the firmware locked it at boot, and only a power cycle lifts that. SSD Keeper can suspend this machine to RAM for 5 seconds; the real-time clock wakes it again.

Save your work in other programs first. Suspend now?</source>
        <translation>Die Sicherheitsfunktionen des Laufwerks sind eingefroren: die Firmware hat sie beim Start gesperrt, und nur ein Aus- und Einschalten hebt das auf. SSD Keeper kann diesen Rechner für 5 Sekunden in den Bereitschaftsmodus versetzen; die Echtzeituhr weckt ihn wieder.

Sichern Sie zuerst Ihre Arbeit in anderen Programmen. Jetzt in Bereitschaft versetzen?</translation>
    </message>
    <message>
        <source>Suspending…</source>
        <translation>Bereitschaft wird eingeleitet …</translation>
    </message>
    <message>
        <source>The drive is still frozen after the suspend (this machine keeps it powered, or its firmware froze it again on resume). Hot-plug the drive — unplug its data and power cable while the machine runs, then plug it back — and try again.</source>
        <translation>Das Laufwerk ist nach der Bereitschaft noch eingefroren (dieser Rechner versorgt es weiter mit Strom, oder seine Firmware hat es beim Aufwachen erneut eingefroren). Stecken Sie das Laufwerk im laufenden Betrieb um – Daten- und Stromkabel abziehen, dann wieder anstecken – und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>The drive is no longer frozen. Reading its erase methods again…</source>
        <translation>Das Laufwerk ist nicht mehr eingefroren. Die Löschverfahren werden erneut gelesen …</translation>
    </message>
    <message>
        <source>Starting %1…</source>
        <translation>%1 wird gestartet …</translation>
    </message>
    <message>
        <source>Could not unfreeze the drive: %1</source>
        <translation>Das Laufwerk konnte nicht entsperrt werden: %1</translation>
    </message>
    <message>
        <source>Could not read the drive&apos;s erase methods: %1</source>
        <translation>Die Löschverfahren des Laufwerks konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>The erase failed: %1</source>
        <translation>Das Löschen ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Not erased: %1</source>
        <translation>Nicht gelöscht: %1</translation>
    </message>
    <message>
        <source>Done.</source>
        <translation>Fertig.</translation>
    </message>
    <message>
        <source>Erased and verified: %1</source>
        <translation>Gelöscht und überprüft: %1</translation>
    </message>
    <message>
        <source>Erased, but the verification FAILED: %1</source>
        <translation>Gelöscht, aber die Überprüfung ist FEHLGESCHLAGEN: %1</translation>
    </message>
</context>
<context>
    <name>ssdk::app::FirmwarePage</name>
    <message>
        <source>Update the firmware of %1?

%2

</source>
        <translation>Die Firmware von %1 aktualisieren?

%2

</translation>
    </message>
    <message>
        <source>Update firmware</source>
        <translation>Firmware aktualisieren</translation>
    </message>
    <message>
        <source>Firmware slots</source>
        <translation>Firmware-Slots</translation>
    </message>
    <message>
        <source>Slot</source>
        <translation>Slot</translation>
    </message>
    <message>
        <source>Revision</source>
        <translation>Revision</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Known firmware problems</source>
        <translation>Bekannte Firmware-Probleme</translation>
    </message>
    <message>
        <source>Update paths</source>
        <translation>Aktualisierungswege</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Weg</translation>
    </message>
    <message>
        <source>Offered</source>
        <translation>Angeboten</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>fwupd releases</source>
        <translation>fwupd-Versionen</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Remote</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Zusammenfassung</translation>
    </message>
    <message>
        <source>Install…</source>
        <translation>Installieren …</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>fwupd stops a download or an install that has not started writing; it does not stop a device that is being written.</source>
        <translation>fwupd bricht einen Download oder eine Installation ab, solange noch nicht geschrieben wird; ein Gerät, das gerade beschrieben wird, hält es nicht an.</translation>
    </message>
    <message>
        <source>fwupd was not asked about this drive.</source>
        <translation>fwupd wurde zu diesem Laufwerk nicht befragt.</translation>
    </message>
    <message>
        <source>Not offered: %1</source>
        <translation>Nicht angeboten: %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, version &lt;b&gt;%2&lt;/b&gt; (fwupd device %3).&lt;br&gt;%4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;, Version &lt;b&gt;%2&lt;/b&gt; (fwupd-Gerät %3).&lt;br&gt;%4</translation>
    </message>
    <message>
        <source>fwupd installs firmware %1 on %2. fwupd checks the file against its metadata and may ask for your password.</source>
        <translation>fwupd installiert die Firmware %1 auf %2. fwupd prüft die Datei anhand seiner Metadaten und fragt eventuell nach Ihrem Passwort.</translation>
    </message>
    <message>
        <source>Back up your data first.</source>
        <translation>Sichern Sie zuerst Ihre Daten.</translation>
    </message>
    <message>
        <source>Keep the machine powered until fwupd is done.</source>
        <translation>Lassen Sie den Rechner eingeschaltet, bis fwupd fertig ist.</translation>
    </message>
    <message>
        <source>Install cancelled; nothing was sent to fwupd.</source>
        <translation>Installation abgebrochen; nichts wurde an fwupd gesendet.</translation>
    </message>
    <message>
        <source>fwupd is installing %1…</source>
        <translation>fwupd installiert %1 …</translation>
    </message>
    <message>
        <source>fwupd: %1 %2%</source>
        <translation>fwupd: %1 %2 %</translation>
    </message>
    <message>
        <source>Installed %1: %2 now runs %3 (was %4).</source>
        <translation>%1 installiert: %2 läuft jetzt mit %3 (vorher %4).</translation>
    </message>
    <message>
        <source>fwupd did not install: %1</source>
        <translation>fwupd hat nicht installiert: %1</translation>
    </message>
    <message>
        <source>Update from image…</source>
        <translation>Aus Abbild aktualisieren …</translation>
    </message>
    <message>
        <source>Only an NVMe firmware image the drive&apos;s vendor published for this exact model. SSD Keeper checks power, image size and alignment and the slot before anything is sent.</source>
        <translation>Nur ein NVMe-Firmware-Abbild, das der Hersteller für genau dieses Modell veröffentlicht hat. SSD Keeper prüft Stromversorgung, Abbildgröße, Ausrichtung und Slot, bevor etwas gesendet wird.</translation>
    </message>
    <message>
        <source>Firmware image file</source>
        <translation>Firmware-Abbilddatei</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen …</translation>
    </message>
    <message>
        <source>Firmware image</source>
        <translation>Firmware-Abbild</translation>
    </message>
    <message>
        <source>Image:</source>
        <translation>Abbild:</translation>
    </message>
    <message>
        <source>Store and activate at the next reset</source>
        <translation>Speichern und beim nächsten Reset aktivieren</translation>
    </message>
    <message>
        <source>Store only</source>
        <translation>Nur speichern</translation>
    </message>
    <message>
        <source>Activate the image already in the slot</source>
        <translation>Das Abbild im Slot aktivieren</translation>
    </message>
    <message>
        <source>Store and activate now (no reset)</source>
        <translation>Speichern und sofort aktivieren (ohne Reset)</translation>
    </message>
    <message>
        <source>Slot:</source>
        <translation>Slot:</translation>
    </message>
    <message>
        <source>Action:</source>
        <translation>Aktion:</translation>
    </message>
    <message>
        <source>This drive holds the running system: update it anyway</source>
        <translation>Dieses Laufwerk enthält das laufende System: trotzdem aktualisieren</translation>
    </message>
    <message>
        <source>Check and update…</source>
        <translation>Prüfen und aktualisieren …</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; – %2</translation>
    </message>
    <message>
        <source>Select a drive.</source>
        <translation>Wählen Sie ein Laufwerk.</translation>
    </message>
    <message>
        <source>Reading the firmware of %1…</source>
        <translation>Die Firmware von %1 wird gelesen …</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — %2 — firmware &lt;b&gt;%3&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; – %2 – Firmware &lt;b&gt;%3&lt;/b&gt;</translation>
    </message>
    <message>
        <source>not reported</source>
        <translation>nicht gemeldet</translation>
    </message>
    <message>
        <source>%1 slot(s); slot 1 read-only: %2; activation without reset: %3; Firmware Download/Commit: %4; download chunk %5 KiB%6</source>
        <translation>%1 Slot(s); Slot 1 schreibgeschützt: %2; Aktivierung ohne Reset: %3; Firmware Download/Commit: %4; Download-Blockgröße %5 KiB%6</translation>
    </message>
    <message>
        <source> (FWUG)</source>
        <translation> (FWUG)</translation>
    </message>
    <message>
        <source> (FWUG not stated)</source>
        <translation> (FWUG nicht angegeben)</translation>
    </message>
    <message>
        <source>ATA DOWNLOAD MICROCODE modes: %1</source>
        <translation>ATA-DOWNLOAD-MICROCODE-Modi: %1</translation>
    </message>
    <message>
        <source>The drive does not support ATA DOWNLOAD MICROCODE.</source>
        <translation>Das Laufwerk unterstützt ATA DOWNLOAD MICROCODE nicht.</translation>
    </message>
    <message>
        <source>This drive reports no firmware slots.</source>
        <translation>Dieses Laufwerk meldet keine Firmware-Slots.</translation>
    </message>
    <message>
        <source>Firmware slots unavailable: %1</source>
        <translation>Firmware-Slots nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <source>active after the next reset</source>
        <translation>aktiv nach dem nächsten Reset</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>schreibgeschützt</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>(leer)</translation>
    </message>
    <message>
        <source>Not looked up: the drive reports no %1, and known problems are listed by model and firmware revision.</source>
        <translation>Nicht nachgeschlagen: das Laufwerk meldet kein Feld „%1“, und bekannte Probleme sind nach Modell und Firmware-Revision verzeichnet.</translation>
    </message>
    <message>
        <source>model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>firmware revision</source>
        <translation>Firmware-Revision</translation>
    </message>
    <message>
        <source>None known for this model and revision (SSD Keeper&apos;s catalog and smartctl&apos;s drive database).</source>
        <translation>Keine bekannt für dieses Modell und diese Revision (Katalog von SSD Keeper und Laufwerksdatenbank von smartctl).</translation>
    </message>
    <message>
        <source>Fixed in firmware &lt;b&gt;%1&lt;/b&gt;. </source>
        <translation>Behoben in Firmware &lt;b&gt;%1&lt;/b&gt;. </translation>
    </message>
    <message>
        <source>Source: %1&lt;/p&gt;</source>
        <translation>Quelle: %1&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Cannot check the update: %1</source>
        <translation>Die Aktualisierung kann nicht geprüft werden: %1</translation>
    </message>
    <message>
        <source>Cannot check the update: %1 is not a readable file.</source>
        <translation>Die Aktualisierung kann nicht geprüft werden: %1 ist keine lesbare Datei.</translation>
    </message>
    <message>
        <source>Checking the update…</source>
        <translation>Die Aktualisierung wird geprüft …</translation>
    </message>
    <message>
        <source>Refused — %1
%2</source>
        <translation>Abgelehnt – %1
%2</translation>
    </message>
    <message>
        <source>Update cancelled; nothing was sent to the drive.</source>
        <translation>Aktualisierung abgebrochen; nichts wurde an das Laufwerk gesendet.</translation>
    </message>
    <message>
        <source>The update failed: %1</source>
        <translation>Die Aktualisierung ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Updating the firmware; keep the machine powered…</source>
        <translation>Die Firmware wird aktualisiert; lassen Sie den Rechner eingeschaltet …</translation>
    </message>
    <message>
        <source>The firmware could not be read: %1</source>
        <translation>Die Firmware konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Firmware committed. %1%2</source>
        <translation>Firmware übernommen. %1%2</translation>
    </message>
    <message>
        <source>
A reset is needed before the drive runs it.</source>
        <translation>
Das Laufwerk verwendet sie erst nach einem Reset.</translation>
    </message>
    <message>
        <source>fwupd offers no upgrade for this drive; see the reason above.</source>
        <translation>fwupd bietet für dieses Laufwerk keine Aktualisierung an; der Grund steht oben.</translation>
    </message>
    <message>
        <source>The NVMe image path is not offered for this drive; see Update paths for why.</source>
        <translation>Der Weg über ein NVMe-Abbild wird für dieses Laufwerk nicht angeboten; den Grund nennt „Aktualisierungswege“.</translation>
    </message>
    <message>
        <source>No firmware slots reported (NVMe drives report them).</source>
        <translation>Keine Firmware-Slots gemeldet (NVMe-Laufwerke melden sie).</translation>
    </message>
    <message>
        <source>No update paths checked yet.</source>
        <translation>Noch keine Aktualisierungswege geprüft.</translation>
    </message>
    <message>
        <source>No fwupd releases listed yet.</source>
        <translation>Noch keine fwupd-Versionen aufgelistet.</translation>
    </message>
</context>
<context>
    <name>ssdk::app::HealthPage</name>
    <message>
        <source>Drive health</source>
        <translation>Laufwerkszustand</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Open report…</source>
        <translation>Bericht öffnen …</translation>
    </message>
    <message>
        <source>Open a saved smartctl JSON report or libatasmart blob</source>
        <translation>Einen gespeicherten smartctl-JSON-Bericht oder libatasmart-Blob öffnen</translation>
    </message>
    <message>
        <source>Short self-test</source>
        <translation>Kurzer Selbsttest</translation>
    </message>
    <message>
        <source>Extended self-test</source>
        <translation>Erweiterter Selbsttest</translation>
    </message>
    <message>
        <source>Abort self-test</source>
        <translation>Selbsttest abbrechen</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <source>Life remaining</source>
        <translation>Verbleibende Lebensdauer</translation>
    </message>
    <message>
        <source>Host writes</source>
        <translation>Geschriebene Daten</translation>
    </message>
    <message>
        <source>Power-on time</source>
        <translation>Betriebszeit</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Attribute</source>
        <translation>Attribut</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Worst</source>
        <translation>Schlechtester</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>Schwellwert</translation>
    </message>
    <message>
        <source>Raw (decoded)</source>
        <translation>Rohwert (dekodiert)</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>SMART attributes</source>
        <translation>SMART-Attribute</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Feld</translation>
    </message>
    <message>
        <source>NVMe health log</source>
        <translation>NVMe-Zustandsprotokoll</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Test</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Power-on hours</source>
        <translation>Betriebsstunden</translation>
    </message>
    <message>
        <source>Self-tests</source>
        <translation>Selbsttests</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen …</translation>
    </message>
    <message>
        <source>Open SMART report</source>
        <translation>SMART-Bericht öffnen</translation>
    </message>
    <message>
        <source>SMART reports (*.json *.bin);;All files (*)</source>
        <translation>SMART-Berichte (*.json *.bin);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>%1 wird geöffnet …</translation>
    </message>
    <message>
        <source>Aborting the self-test…</source>
        <translation>Der Selbsttest wird abgebrochen …</translation>
    </message>
    <message>
        <source>Starting a %1 self-test…</source>
        <translation>Ein Selbsttest (%1) wird gestartet …</translation>
    </message>
    <message>
        <source>ERROR</source>
        <translation>FEHLER</translation>
    </message>
    <message>
        <source>serial %1</source>
        <translation>Seriennummer %1</translation>
    </message>
    <message>
        <source>firmware %1</source>
        <translation>Firmware %1</translation>
    </message>
    <message>
        <source>via %1</source>
        <translation>über %1</translation>
    </message>
    <message>
        <source>Nothing of concern: every check passed.</source>
        <translation>Nichts Bedenkliches: alle Prüfungen bestanden.</translation>
    </message>
    <message>
        <source>lifetime %1–%2 °C</source>
        <translation>bisher %1–%2 °C</translation>
    </message>
    <message>
        <source>warning at %1 °C</source>
        <translation>Warnung ab %1 °C</translation>
    </message>
    <message>
        <source>not reported</source>
        <translation>nicht gemeldet</translation>
    </message>
    <message>
        <source>%1 % used (%2)</source>
        <translation>%1 % verbraucht (%2)</translation>
    </message>
    <message>
        <source>no wear indicator</source>
        <translation>keine Verschleißanzeige</translation>
    </message>
    <message>
        <source>NVMe data units × 512 000 bytes</source>
        <translation>NVMe-Dateneinheiten × 512 000 Bytes</translation>
    </message>
    <message>
        <source>from the drive&apos;s write counter</source>
        <translation>aus dem Schreibzähler des Laufwerks</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>, %1 power cycles</source>
        <translation>, %1 Einschaltvorgänge</translation>
    </message>
    <message>
        <source>FAILING NOW</source>
        <translation>FÄLLT JETZT AUS</translation>
    </message>
    <message>
        <source>Failed in the past</source>
        <translation>Früher ausgefallen</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>Pre-fail</source>
        <translation>Vorausfall</translation>
    </message>
    <message>
        <source>Old-age</source>
        <translation>Alterung</translation>
    </message>
    <message>
        <source>The normalized value is at or below the threshold now</source>
        <translation>Der normierte Wert liegt jetzt am oder unter dem Schwellwert</translation>
    </message>
    <message>
        <source>The worst value reached the threshold in the past</source>
        <translation>Der schlechteste Wert hat den Schwellwert früher erreicht</translation>
    </message>
    <message>
        <source>Critical warning</source>
        <translation>Kritische Warnung</translation>
    </message>
    <message>
        <source> (none)</source>
        <translation> (keine)</translation>
    </message>
    <message>
        <source>Available spare</source>
        <translation>Verfügbare Reserve</translation>
    </message>
    <message>
        <source>%1 % (threshold %2 %)</source>
        <translation>%1 % (Schwellwert %2 %)</translation>
    </message>
    <message>
        <source>Percentage used</source>
        <translation>Verbrauchter Anteil</translation>
    </message>
    <message>
        <source>Data units read</source>
        <translation>Gelesene Dateneinheiten</translation>
    </message>
    <message>
        <source>Data units written</source>
        <translation>Geschriebene Dateneinheiten</translation>
    </message>
    <message>
        <source>Host read commands</source>
        <translation>Lesebefehle des Hosts</translation>
    </message>
    <message>
        <source>Host write commands</source>
        <translation>Schreibbefehle des Hosts</translation>
    </message>
    <message>
        <source>Controller busy time (min)</source>
        <translation>Controller-Belegtzeit (min)</translation>
    </message>
    <message>
        <source>Power cycles</source>
        <translation>Einschaltvorgänge</translation>
    </message>
    <message>
        <source>Unsafe shutdowns</source>
        <translation>Unsichere Abschaltungen</translation>
    </message>
    <message>
        <source>Media and data integrity errors</source>
        <translation>Medien- und Datenintegritätsfehler</translation>
    </message>
    <message>
        <source>Error log entries</source>
        <translation>Fehlerprotokolleinträge</translation>
    </message>
    <message>
        <source>Warning temperature time (min)</source>
        <translation>Zeit über Warntemperatur (min)</translation>
    </message>
    <message>
        <source>Critical temperature time (min)</source>
        <translation>Zeit über kritischer Temperatur (min)</translation>
    </message>
    <message>
        <source>No self-test information was read.</source>
        <translation>Es wurden keine Selbsttest-Informationen gelesen.</translation>
    </message>
    <message>
        <source>A self-test is running: %1 % remaining.</source>
        <translation>Ein Selbsttest läuft: noch %1 %.</translation>
    </message>
    <message>
        <source>Last status: %1</source>
        <translation>Letzter Status: %1</translation>
    </message>
    <message>
        <source> A short test takes about %1 min, an extended one about %2 min.</source>
        <translation> Ein kurzer Test dauert etwa %1 min, ein erweiterter etwa %2 min.</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>Close report</source>
        <translation>Bericht schließen</translation>
    </message>
    <message>
        <source>Show the selected drive again</source>
        <translation>Wieder das gewählte Laufwerk zeigen</translation>
    </message>
    <message>
        <source>Save report…</source>
        <translation>Bericht speichern …</translation>
    </message>
    <message>
        <source>Save this reading of the drive, to open it later or elsewhere</source>
        <translation>Diese Auslesung des Laufwerks speichern, um sie später oder anderswo zu öffnen</translation>
    </message>
    <message>
        <source>Save SMART report</source>
        <translation>SMART-Bericht speichern</translation>
    </message>
    <message>
        <source>smartctl JSON (*.json)</source>
        <translation>smartctl-JSON (*.json)</translation>
    </message>
    <message>
        <source>libatasmart blob (*.bin)</source>
        <translation>libatasmart-Blob (*.bin)</translation>
    </message>
    <message>
        <source>There is no reading of the drive to save.</source>
        <translation>Es gibt keine Auslesung des Laufwerks zum Speichern.</translation>
    </message>
    <message>
        <source>Saving %1…</source>
        <translation>%1 wird gespeichert …</translation>
    </message>
    <message>
        <source>Read %1</source>
        <translation>Gelesen %1</translation>
    </message>
    <message>
        <source>Showing the report &lt;b&gt;%1&lt;/b&gt;, read %2 — not the selected drive.</source>
        <translation>Gezeigt wird der Bericht &lt;b&gt;%1&lt;/b&gt;, gelesen %2 – nicht das gewählte Laufwerk.</translation>
    </message>
    <message>
        <source>The report &lt;b&gt;%1&lt;/b&gt; could not be opened.</source>
        <translation>Der Bericht &lt;b&gt;%1&lt;/b&gt; konnte nicht geöffnet werden.</translation>
    </message>
    <message>
        <source>; about %1 left at this rate</source>
        <translation>; bei dieser Rate noch etwa %1</translation>
    </message>
    <message>
        <source>No SMART attributes: the drive reports none.</source>
        <translation>Keine SMART-Attribute: Das Laufwerk meldet keine.</translation>
    </message>
    <message>
        <source>No self-tests logged.</source>
        <translation>Keine Selbsttests protokolliert.</translation>
    </message>
</context>
<context>
    <name>ssdk::app::LabDriveDialog</name>
    <message>
        <source>Create lab drive</source>
        <translation>Testlaufwerk anlegen</translation>
    </message>
    <message>
        <source>A lab drive is a loop device over a sparse image file in your state directory. Try destructive features on it without risking a real disk. Creating one needs administrator rights.</source>
        <translation>Ein Testlaufwerk ist ein Loop-Gerät über einer Sparse-Abbilddatei in Ihrem Statusverzeichnis. Probieren Sie daran zerstörerische Funktionen aus, ohne ein echtes Laufwerk zu gefährden. Zum Anlegen sind Administratorrechte nötig.</translation>
    </message>
    <message>
        <source>1–32 letters, digits, &apos;_&apos; or &apos;-&apos;, starting with a letter or digit.</source>
        <translation>1–32 Buchstaben, Ziffern, &apos;_&apos; oder &apos;-&apos;, beginnend mit einem Buchstaben oder einer Ziffer.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
    <message>
        <source>The image is sparse: it only takes the space that is written.</source>
        <translation>Das Abbild ist eine Sparse-Datei: es belegt nur den beschriebenen Platz.</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>512 bytes</source>
        <translation>512 Bytes</translation>
    </message>
    <message>
        <source>4096 bytes (4Kn)</source>
        <translation>4096 Bytes (4Kn)</translation>
    </message>
    <message>
        <source>Logical sector size</source>
        <translation>Logische Sektorgröße</translation>
    </message>
    <message>
        <source>Empty</source>
        <translation>Leer</translation>
    </message>
    <message>
        <source>GPT + ext4</source>
        <translation>GPT + ext4</translation>
    </message>
    <message>
        <source>GPT + ext4: one partition over the whole drive, formatted ext4.</source>
        <translation>GPT + ext4: eine Partition über das ganze Laufwerk, als ext4 formatiert.</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>Aufteilung</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>Anlegen</translation>
    </message>
    <message>
        <source>A lab drive named “%1” exists already.</source>
        <translation>Ein Testlaufwerk namens „%1“ gibt es bereits.</translation>
    </message>
</context>
<context>
    <name>ssdk::app::MainWindow</name>
    <message>
        <source>Overview</source>
        <translation>Übersicht</translation>
    </message>
    <message>
        <source>Health</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Performance</source>
        <translation>Leistung</translation>
    </message>
    <message>
        <source>RAM Cache</source>
        <translation>RAM-Cache</translation>
    </message>
    <message>
        <source>Spare Area</source>
        <translation>Reservebereich</translation>
    </message>
    <message>
        <source>Maintenance</source>
        <translation>Wartung</translation>
    </message>
    <message>
        <source>Firmware</source>
        <translation>Firmware</translation>
    </message>
    <message>
        <source>&amp;Rescan</source>
        <translation>&amp;Neu einlesen</translation>
    </message>
    <message>
        <source>Look for drives again (F5)</source>
        <translation>Erneut nach Laufwerken suchen (F5)</translation>
    </message>
    <message>
        <source>&amp;Create lab drive…</source>
        <translation>Testlaufwerk &amp;anlegen …</translation>
    </message>
    <message>
        <source>&amp;Destroy lab drive…</source>
        <translation>Testlaufwerk &amp;entfernen …</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;About SSD Keeper</source>
        <translation>Ü&amp;ber SSD Keeper</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Drives</source>
        <translation>&amp;Laufwerke</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>Drives</source>
        <translation>Laufwerke</translation>
    </message>
    <message>
        <source>DRIVES</source>
        <translation>LAUFWERKE</translation>
    </message>
    <message>
        <source>Create lab drive…</source>
        <translation>Testlaufwerk anlegen …</translation>
    </message>
    <message>
        <source>Recorded tree: %1</source>
        <translation>Aufgezeichneter Baum: %1</translation>
    </message>
    <message>
        <source>Started with --sysfs-root: showing a recorded system, not this machine.</source>
        <translation>Mit --sysfs-root gestartet: zeigt ein aufgezeichnetes System, nicht diesen Rechner.</translation>
    </message>
    <message>
        <source>Looking for drives…</source>
        <translation>Suche nach Laufwerken …</translation>
    </message>
    <message>
        <source>1 drive</source>
        <translation>1 Laufwerk</translation>
    </message>
    <message>
        <source>%1 drives</source>
        <translation>%1 Laufwerke</translation>
    </message>
    <message>
        <source>%1 · updated %2</source>
        <translation>%1 · aktualisiert %2</translation>
    </message>
    <message>
        <source>Discovery failed: %1</source>
        <translation>Erkennung fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>No drives found</source>
        <translation>Keine Laufwerke gefunden</translation>
    </message>
    <message>
        <source>SSD Keeper found no block devices on this machine. Create a lab drive to try its features without risking a disk.</source>
        <translation>SSD Keeper hat auf diesem Rechner keine Blockgeräte gefunden. Legen Sie ein Testlaufwerk an, um die Funktionen auszuprobieren, ohne ein Laufwerk zu gefährden.</translation>
    </message>
    <message>
        <source>The recorded tree %1 holds no block devices.</source>
        <translation>Der aufgezeichnete Baum %1 enthält keine Blockgeräte.</translation>
    </message>
    <message>
        <source>Lab drives need the live system, not a recorded tree.</source>
        <translation>Testlaufwerke brauchen das laufende System, keinen aufgezeichneten Baum.</translation>
    </message>
    <message>
        <source>Create a loop device over a sparse image file</source>
        <translation>Ein Loop-Gerät über einer Sparse-Abbilddatei anlegen</translation>
    </message>
    <message>
        <source>Detach the selected lab drive and delete its image</source>
        <translation>Das gewählte Testlaufwerk lösen und sein Abbild löschen</translation>
    </message>
    <message>
        <source>Creating lab drive “%1”…</source>
        <translation>Testlaufwerk „%1“ wird angelegt …</translation>
    </message>
    <message>
        <source>Destroy lab drive</source>
        <translation>Testlaufwerk entfernen</translation>
    </message>
    <message>
        <source>Destroy the lab drive “%1”?</source>
        <translation>Das Testlaufwerk „%1“ entfernen?</translation>
    </message>
    <message>
        <source>%1 is detached and its image file deleted. Everything stored on it is lost.</source>
        <translation>%1 wird gelöst und seine Abbilddatei gelöscht. Alles, was darauf gespeichert ist, geht verloren.</translation>
    </message>
    <message>
        <source>Destroy</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Destroying lab drive “%1”…</source>
        <translation>Testlaufwerk „%1“ wird entfernt …</translation>
    </message>
    <message>
        <source>Create lab drive</source>
        <translation>Testlaufwerk anlegen</translation>
    </message>
    <message>
        <source>Could not create the lab drive “%1”.</source>
        <translation>Das Testlaufwerk „%1“ konnte nicht angelegt werden.</translation>
    </message>
    <message>
        <source>Could not destroy the lab drive “%1”.</source>
        <translation>Das Testlaufwerk „%1“ konnte nicht entfernt werden.</translation>
    </message>
    <message>
        <source>Created lab drive “%1”.</source>
        <translation>Testlaufwerk „%1“ angelegt.</translation>
    </message>
    <message>
        <source>Destroyed lab drive “%1”.</source>
        <translation>Testlaufwerk „%1“ entfernt.</translation>
    </message>
    <message>
        <source>About SSD Keeper</source>
        <translation>Über SSD Keeper</translation>
    </message>
    <message>
        <source>&lt;h3&gt;SSD Keeper %1&lt;/h3&gt;&lt;p&gt;An SSD manager for every vendor&apos;s drive: identity, health, performance, RAM cache, spare area, TRIM, secure erase and firmware.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;SSD Keeper %1&lt;/h3&gt;&lt;p&gt;Eine SSD-Verwaltung für Laufwerke jedes Herstellers: Identität, Zustand, Leistung, RAM-Cache, Reservebereich, TRIM, sicheres Löschen und Firmware.&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>ssdk::app::MaintenancePage</name>
    <message>
        <source>TRIM audit: can a discard reach the flash?</source>
        <translation>TRIM-Prüfung: Erreicht ein Discard den Flash-Speicher?</translation>
    </message>
    <message>
        <source>Audit</source>
        <translation>Prüfen</translation>
    </message>
    <message>
        <source>Drive, partition or mount point:</source>
        <translation>Laufwerk, Partition oder Einhängepunkt:</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>Schicht</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Verify TRIM, fstrim and scheduled TRIM</source>
        <translation>TRIM überprüfen, fstrim und geplantes TRIM</translation>
    </message>
    <message>
        <source>Trim now (FITRIM)</source>
        <translation>Jetzt trimmen (FITRIM)</translation>
    </message>
    <message>
        <source>Wait for online discard</source>
        <translation>Auf Online-Discard warten</translation>
    </message>
    <message>
        <source>Verify TRIM</source>
        <translation>TRIM überprüfen</translation>
    </message>
    <message>
        <source>Writes a file of marker blocks, deletes it, trims, and reads the device back. Nothing outside that file is written.</source>
        <translation>Schreibt eine Datei aus Markierungsblöcken, löscht sie, trimmt und liest das Gerät zurück. Außerhalb dieser Datei wird nichts geschrieben.</translation>
    </message>
    <message>
        <source>Run fstrim</source>
        <translation>fstrim ausführen</translation>
    </message>
    <message>
        <source>Mounted filesystem:</source>
        <translation>Eingehängtes Dateisystem:</translation>
    </message>
    <message>
        <source>fstrim.timer: …</source>
        <translation>fstrim.timer: …</translation>
    </message>
    <message>
        <source>Enable weekly TRIM</source>
        <translation>Wöchentliches TRIM einschalten</translation>
    </message>
    <message>
        <source>Quick format + verify TRIM</source>
        <translation>Schnellformatierung + TRIM überprüfen</translation>
    </message>
    <message>
        <source>Discard the whole partition first</source>
        <translation>Zuerst die ganze Partition verwerfen (Discard)</translation>
    </message>
    <message>
        <source>Format…</source>
        <translation>Formatieren …</translation>
    </message>
    <message>
        <source>Unmounted partition:</source>
        <translation>Ausgehängte Partition:</translation>
    </message>
    <message>
        <source>Filesystem:</source>
        <translation>Dateisystem:</translation>
    </message>
    <message>
        <source>Secure erase</source>
        <translation>Sicheres Löschen</translation>
    </message>
    <message>
        <source>Erases the whole drive with the strongest method it supports (NVMe sanitize/format, ATA sanitize/security erase, discard, zero-out), then verifies and writes a certificate.</source>
        <translation>Löscht das ganze Laufwerk mit dem stärksten Verfahren, das es unterstützt (NVMe Sanitize/Format, ATA Sanitize/Security Erase, Discard, Nullen), überprüft danach und schreibt einen Nachweis.</translation>
    </message>
    <message>
        <source>Erase drive…</source>
        <translation>Laufwerk löschen …</translation>
    </message>
    <message>
        <source>fstrim.timer: unavailable — %1</source>
        <translation>fstrim.timer: nicht verfügbar – %1</translation>
    </message>
    <message>
        <source>fstrim.timer: %1, %2</source>
        <translation>fstrim.timer: %1, %2</translation>
    </message>
    <message>
        <source>enabled</source>
        <translation>eingeschaltet</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>ausgeschaltet</translation>
    </message>
    <message>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <source>inactive</source>
        <translation>inaktiv</translation>
    </message>
    <message>
        <source>Disable weekly TRIM</source>
        <translation>Wöchentliches TRIM ausschalten</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Auditing %1…</source>
        <translation>%1 wird geprüft …</translation>
    </message>
    <message>
        <source>Verifying…</source>
        <translation>Wird überprüft …</translation>
    </message>
    <message>
        <source>Format %1?</source>
        <translation>%1 formatieren?</translation>
    </message>
    <message>
        <source>Formatting %1 as %2 destroys everything on it.</source>
        <translation>Das Formatieren von %1 als %2 vernichtet alles darauf.</translation>
    </message>
    <message>
        <source>Formatting…</source>
        <translation>Wird formatiert …</translation>
    </message>
    <message>
        <source>Trimmed blocks read back as: %1</source>
        <translation>Getrimmte Blöcke lesen sich zurück als: %1</translation>
    </message>
    <message>
        <source>Marker blocks on %1 after the trim: %2 markers, %3 zeros, %4 ones, %5 other.</source>
        <translation>Markierungsblöcke auf %1 nach dem Trimmen: %2 Markierungen, %3 Nullen, %4 Einsen, %5 Sonstige.</translation>
    </message>
    <message>
        <source> Lab drive image: %1 of those blocks store no data any more.</source>
        <translation> Abbild des Testlaufwerks: %1 dieser Blöcke speichern keine Daten mehr.</translation>
    </message>
    <message>
        <source>fstrim %1: %2 trimmed</source>
        <translation>fstrim %1: %2 getrimmt</translation>
    </message>
    <message>
        <source>Formatted %1 as %2 (%3).</source>
        <translation>%1 als %2 formatiert (%3).</translation>
    </message>
    <message>
        <source>Sampled %1 data blocks. Judged %2, the ones the new %3 leaves free (read from %4): %5 discarded, %6 kept old data, %7 hold other data. %8 now used by the new %3, not judged.</source>
        <translation>%1 Datenblöcke stichprobenartig gelesen. Bewertet wurden %2, die das neue %3 frei lässt (gelesen aus %4): %5 verworfen, %6 mit alten Daten, %7 mit anderen Daten. %8 jetzt vom neuen %3 belegt, nicht bewertet.</translation>
    </message>
    <message>
        <source> Lab drive image agrees on %1 of %2 judged blocks.</source>
        <translation> Das Abbild des Testlaufwerks stimmt bei %1 von %2 bewerteten Blöcken überein.</translation>
    </message>
    <message>
        <source>&lt;br&gt;The formatter did not discard: tick &quot;Discard the whole partition first&quot; and format again.</source>
        <translation>&lt;br&gt;Das Formatierprogramm hat nicht verworfen: kreuzen Sie „Zuerst die ganze Partition verwerfen (Discard)“ an und formatieren Sie erneut.</translation>
    </message>
    <message>
        <source>No audit yet: choose what to check and press Audit.</source>
        <translation>Noch keine Prüfung: wählen Sie, was geprüft werden soll, und drücken Sie „Prüfen“.</translation>
    </message>
</context>
<context>
    <name>ssdk::app::OverviewPage</name>
    <message>
        <source>Select a drive on the left to see its details.</source>
        <translation>Wählen Sie links ein Laufwerk, um seine Details zu sehen.</translation>
    </message>
    <message>
        <source>LAB</source>
        <translation>TEST</translation>
    </message>
    <message>
        <source>An SSD Keeper lab drive: a loop device over a sparse image file, safe for destructive experiments.</source>
        <translation>Ein Testlaufwerk von SSD Keeper: ein Loop-Gerät über einer Sparse-Abbilddatei, sicher für zerstörerische Versuche.</translation>
    </message>
    <message>
        <source>SYSTEM</source>
        <translation>SYSTEM</translation>
    </message>
    <message>
        <source>Holds the root filesystem: destructive features refuse it.</source>
        <translation>Enthält das Wurzeldateisystem: zerstörerische Funktionen lehnen es ab.</translation>
    </message>
    <message>
        <source>IN USE</source>
        <translation>BELEGT</translation>
    </message>
    <message>
        <source>Mounted, or held by another block device.</source>
        <translation>Eingehängt oder von einem anderen Blockgerät gehalten.</translation>
    </message>
    <message>
        <source>Identity</source>
        <translation>Identität</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Vendor</source>
        <translation>Hersteller</translation>
    </message>
    <message>
        <source>Serial number</source>
        <translation>Seriennummer</translation>
    </message>
    <message>
        <source>Firmware</source>
        <translation>Firmware</translation>
    </message>
    <message>
        <source>WWN</source>
        <translation>WWN</translation>
    </message>
    <message>
        <source>Bus</source>
        <translation>Bus</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Device number</source>
        <translation>Gerätenummer</translation>
    </message>
    <message>
        <source>Lab drive</source>
        <translation>Testlaufwerk</translation>
    </message>
    <message>
        <source>Backing file</source>
        <translation>Abbilddatei</translation>
    </message>
    <message>
        <source>Filesystem</source>
        <translation>Dateisystem</translation>
    </message>
    <message>
        <source>Mounted at</source>
        <translation>Eingehängt unter</translation>
    </message>
    <message>
        <source>Capacity and capabilities</source>
        <translation>Kapazität und Fähigkeiten</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>Kapazität</translation>
    </message>
    <message>
        <source>Sector size</source>
        <translation>Sektorgröße</translation>
    </message>
    <message>
        <source>Media</source>
        <translation>Medium</translation>
    </message>
    <message>
        <source>Removable</source>
        <translation>Wechselmedium</translation>
    </message>
    <message>
        <source>Read-only</source>
        <translation>Schreibgeschützt</translation>
    </message>
    <message>
        <source>TRIM / discard</source>
        <translation>TRIM / Discard</translation>
    </message>
    <message>
        <source>Partition table</source>
        <translation>Partitionstabelle</translation>
    </message>
    <message>
        <source>Held by</source>
        <translation>Gehalten von</translation>
    </message>
    <message>
        <source>Partitions</source>
        <translation>Partitionen</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Partition</source>
        <translation>Partition</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Anfang</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Bytes</translation>
    </message>
    <message>
        <source>UUID %1</source>
        <translation>UUID %1</translation>
    </message>
    <message>
        <source>Partition name: %1</source>
        <translation>Partitionsname: %1</translation>
    </message>
    <message>
        <source>%1
%2 bytes</source>
        <translation>%1
%2 Bytes</translation>
    </message>
    <message>
        <source>%1 logical · %2 physical</source>
        <translation>%1 logisch · %2 physisch</translation>
    </message>
    <message>
        <source>Rotational (HDD)</source>
        <translation>Rotierend (HDD)</translation>
    </message>
    <message>
        <source>Non-rotational (SSD / flash)</source>
        <translation>Nicht rotierend (SSD / Flash)</translation>
    </message>
    <message>
        <source>Supported · granularity %1 · up to %2 per request</source>
        <translation>Unterstützt · Granularität %1 · bis %2 pro Anfrage</translation>
    </message>
    <message>
        <source>Not supported</source>
        <translation>Nicht unterstützt</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Keine</translation>
    </message>
    <message>
        <source>1 partition</source>
        <translation>1 Partition</translation>
    </message>
    <message>
        <source>%1 partitions</source>
        <translation>%1 Partitionen</translation>
    </message>
    <message>
        <source>No partition table</source>
        <translation>Keine Partitionstabelle</translation>
    </message>
</context>
<context>
    <name>ssdk::app::PartitionBar</name>
    <message>
        <source>%1 – %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Unallocated&lt;/b&gt;&lt;br&gt;%1&lt;br&gt;%2</source>
        <translation>&lt;b&gt;Nicht zugeordnet&lt;/b&gt;&lt;br&gt;%1&lt;br&gt;%2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2</translation>
    </message>
    <message>
        <source>Starts at %1</source>
        <translation>Beginnt bei %1</translation>
    </message>
    <message>
        <source>Filesystem: %1</source>
        <translation>Dateisystem: %1</translation>
    </message>
    <message>
        <source>Partition name: %1</source>
        <translation>Partitionsname: %1</translation>
    </message>
    <message>
        <source>Mounted at %1</source>
        <translation>Eingehängt unter %1</translation>
    </message>
    <message>
        <source>Held by %1</source>
        <translation>Gehalten von %1</translation>
    </message>
    <message>
        <source>Unallocated</source>
        <translation>Nicht zugeordnet</translation>
    </message>
    <message>
        <source>Whole device</source>
        <translation>Ganzes Gerät</translation>
    </message>
    <message>
        <source>mounted at %1</source>
        <translation>eingehängt unter %1</translation>
    </message>
    <message>
        <source>held by %1</source>
        <translation>gehalten von %1</translation>
    </message>
    <message>
        <source>0 bytes</source>
        <translation>0 Bytes</translation>
    </message>
    <message>
        <source>Partition layout</source>
        <translation>Partitionsaufteilung</translation>
    </message>
    <message>
        <source>No drive</source>
        <translation>Kein Laufwerk</translation>
    </message>
    <message>
        <source>no filesystem</source>
        <translation>kein Dateisystem</translation>
    </message>
    <message>
        <source>No partitions, %1</source>
        <translation>Keine Partitionen, %1</translation>
    </message>
    <message numerus="yes">
        <source>%n partitions: %1</source>
        <translation>
            <numerusform>%n Partition: %1</numerusform>
            <numerusform>%n Partitionen: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ssdk::app::PerformancePage</name>
    <message>
        <source>%1 is not present</source>
        <translation>%1 ist nicht vorhanden</translation>
    </message>
    <message>
        <source>No drive selected</source>
        <translation>Kein Laufwerk gewählt</translation>
    </message>
    <message>
        <source>Last 60 s</source>
        <translation>Letzte 60 s</translation>
    </message>
    <message>
        <source>Last 10 min</source>
        <translation>Letzte 10 min</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <source>Save PNG…</source>
        <translation>PNG speichern …</translation>
    </message>
    <message>
        <source>Save the live graph</source>
        <translation>Live-Diagramm speichern</translation>
    </message>
    <message>
        <source>PNG (*.png)</source>
        <translation>PNG (*.png)</translation>
    </message>
    <message>
        <source>Live throughput</source>
        <translation>Live-Durchsatz</translation>
    </message>
    <message>
        <source>Test file in a folder</source>
        <translation>Testdatei in einem Ordner</translation>
    </message>
    <message>
        <source>Whole device (destroys data)</source>
        <translation>Ganzes Gerät (vernichtet Daten)</translation>
    </message>
    <message>
        <source>Run on</source>
        <translation>Ausführen auf</translation>
    </message>
    <message>
        <source>Folder on the drive for the test file</source>
        <translation>Ordner auf dem Laufwerk für die Testdatei</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen …</translation>
    </message>
    <message>
        <source>Test file folder</source>
        <translation>Ordner für die Testdatei</translation>
    </message>
    <message>
        <source>1 loop</source>
        <translation>1 Durchlauf</translation>
    </message>
    <message>
        <source>%1 loops</source>
        <translation>%1 Durchläufe</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>Bester</translation>
    </message>
    <message>
        <source>Average</source>
        <translation>Mittelwert</translation>
    </message>
    <message>
        <source>Show the best of the loops, or their average, like CrystalDiskMark</source>
        <translation>Den besten Durchlauf oder den Mittelwert zeigen, wie CrystalDiskMark</translation>
    </message>
    <message>
        <source>%1 s per test</source>
        <translation>%1 s pro Test</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Run CrystalDiskMark preset</source>
        <translation>CrystalDiskMark-Vorgabe ausführen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Open result…</source>
        <translation>Ergebnis öffnen …</translation>
    </message>
    <message>
        <source>Save result…</source>
        <translation>Ergebnis speichern …</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSV exportieren …</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>PNG exportieren …</translation>
    </message>
    <message>
        <source>Compare with…</source>
        <translation>Vergleichen mit …</translation>
    </message>
    <message>
        <source>fio runs each test on a test file that is removed afterwards.</source>
        <translation>fio führt jeden Test mit einer Testdatei aus, die danach entfernt wird.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Read (MB/s)&lt;/b&gt;</source>
        <translation>&lt;b&gt;Lesen (MB/s)&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Write (MB/s)&lt;/b&gt;</source>
        <translation>&lt;b&gt;Schreiben (MB/s)&lt;/b&gt;</translation>
    </message>
    <message>
        <source>CrystalDiskMark</source>
        <translation>CrystalDiskMark</translation>
    </message>
    <message>
        <source>Consistency / SLC cache</source>
        <translation>Konstanz / SLC-Cache</translation>
    </message>
    <message>
        <source>Open a result, then compare it with another one.</source>
        <translation>Öffnen Sie ein Ergebnis und vergleichen Sie es dann mit einem anderen.</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Test</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>Messgröße</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Vergleich</translation>
    </message>
    <message>
        <source>Benchmark (fio)</source>
        <translation>Leistungstest (fio)</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source>sampled 10 times a second</source>
        <translation>10-mal pro Sekunde gemessen</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Read %1 MB/s · Write %2 MB/s · %3 IOPS · latency %4 ms · queue depth %5</source>
        <translation>Lesen %1 MB/s · Schreiben %2 MB/s · %3 IOPS · Latenz %4 ms · Warteschlangentiefe %5</translation>
    </message>
    <message>
        <source>Running fio on %1…</source>
        <translation>fio läuft auf %1 …</translation>
    </message>
    <message>
        <source>Cancelling: stopping fio…</source>
        <translation>Abbruch: fio wird beendet …</translation>
    </message>
    <message>
        <source>Cancelling: stopping fio and removing the test file…</source>
        <translation>Abbruch: fio wird beendet und die Testdatei entfernt …</translation>
    </message>
    <message>
        <source>fio writes over all of %1 through ssdkeeper-helper (administrator password); everything on it is lost.</source>
        <translation>fio überschreibt %1 vollständig über ssdkeeper-helper (Administratorpasswort); alles darauf geht verloren.</translation>
    </message>
    <message>
        <source>Whole device: select a drive first.</source>
        <translation>Ganzes Gerät: wählen Sie zuerst ein Laufwerk.</translation>
    </message>
    <message>
        <source>Whole device: also possible for %1 (destroys its data).</source>
        <translation>Ganzes Gerät: auch für %1 möglich (vernichtet seine Daten).</translation>
    </message>
    <message>
        <source>Whole device not offered: %1</source>
        <translation>Ganzes Gerät nicht angeboten: %1</translation>
    </message>
    <message>
        <source>Benchmark the whole device?</source>
        <translation>Das ganze Gerät messen?</translation>
    </message>
    <message>
        <source>&lt;p&gt;fio will write over &lt;b&gt;%1&lt;/b&gt; — %2, %3.&lt;/p&gt;&lt;p&gt;&lt;b&gt;All data on this drive will be lost&lt;/b&gt;: partitions, filesystems and files.&lt;/p&gt;&lt;p&gt;Type &lt;b&gt;%4&lt;/b&gt; to confirm:&lt;/p&gt;</source>
        <translation>&lt;p&gt;fio wird &lt;b&gt;%1&lt;/b&gt; überschreiben – %2, %3.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Alle Daten auf diesem Laufwerk gehen verloren&lt;/b&gt;: Partitionen, Dateisysteme und Dateien.&lt;/p&gt;&lt;p&gt;Geben Sie zur Bestätigung &lt;b&gt;%4&lt;/b&gt; ein:&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Destroy data and benchmark</source>
        <translation>Daten vernichten und messen</translation>
    </message>
    <message>
        <source>Running fio on %1 through ssdkeeper-helper…</source>
        <translation>fio läuft über ssdkeeper-helper auf %1 …</translation>
    </message>
    <message>
        <source>average of 1 loop</source>
        <translation>Mittelwert aus 1 Durchlauf</translation>
    </message>
    <message>
        <source>best of 1 loop</source>
        <translation>bester aus 1 Durchlauf</translation>
    </message>
    <message>
        <source>average of %1 loops</source>
        <translation>Mittelwert aus %1 Durchläufen</translation>
    </message>
    <message>
        <source>best of %1 loops</source>
        <translation>bester aus %1 Durchläufen</translation>
    </message>
    <message>
        <source>average of the loops</source>
        <translation>Mittelwert der Durchläufe</translation>
    </message>
    <message>
        <source>best of the loops</source>
        <translation>bester der Durchläufe</translation>
    </message>
    <message>
        <source>%1 on %2, %3 (%4; numbers are fio&apos;s)</source>
        <translation>%1 auf %2, %3 (%4; Werte von fio)</translation>
    </message>
    <message>
        <source>Open benchmark results (several consistency runs are overlaid)</source>
        <translation>Messergebnisse öffnen (mehrere Konstanzläufe werden überlagert)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>There is no result to export yet.</source>
        <translation>Es gibt noch kein Ergebnis zum Exportieren.</translation>
    </message>
    <message>
        <source>Could not write %1</source>
        <translation>%1 konnte nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Export the chart</source>
        <translation>Diagramm exportieren</translation>
    </message>
    <message>
        <source>Export the result</source>
        <translation>Ergebnis exportieren</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>Nach %1 exportiert</translation>
    </message>
    <message>
        <source>Compare with a saved result</source>
        <translation>Mit einem gespeicherten Ergebnis vergleichen</translation>
    </message>
    <message>
        <source>Open or run a result first: it is A, the file you pick is B.</source>
        <translation>Öffnen oder erzeugen Sie zuerst ein Ergebnis: es ist A, die gewählte Datei ist B.</translation>
    </message>
    <message>
        <source>A: %1 · B: %2 (%3)</source>
        <translation>A: %1 · B: %2 (%3)</translation>
    </message>
    <message>
        <source>Save benchmark result</source>
        <translation>Messergebnis speichern</translation>
    </message>
    <message>
        <source>No comparison yet.</source>
        <translation>Noch kein Vergleich.</translation>
    </message>
    <message>
        <source>Test folder</source>
        <translation>Testordner</translation>
    </message>
    <message>
        <source>Opened %1 (not run now): %2</source>
        <translation>%1 geöffnet (nicht jetzt ausgeführt): %2</translation>
    </message>
</context>
<context>
    <name>ssdk::app::RamCachePage</name>
    <message>
        <source>Select a drive.</source>
        <translation>Wählen Sie ein Laufwerk.</translation>
    </message>
    <message>
        <source>%1 holds the running system (/): SSD Keeper does not stack a cache under it. Select another drive.</source>
        <translation>%1 enthält das laufende System (/): SSD Keeper legt keinen Cache darunter. Wählen Sie ein anderes Laufwerk.</translation>
    </message>
    <message>
        <source>Keep the most used blocks of %1 in RAM (RAPID-style): reads that hit come from memory, and in write-back mode writes are absorbed and written back in larger chunks.</source>
        <translation>Die meistgenutzten Blöcke von %1 im RAM halten (wie RAPID): Treffer beim Lesen kommen aus dem Speicher, und im Write-back-Modus werden Schreibvorgänge aufgefangen und in größeren Stücken zurückgeschrieben.</translation>
    </message>
    <message>
        <source>Pick a backend that can run here.</source>
        <translation>Wählen Sie ein Backend, das hier laufen kann.</translation>
    </message>
</context>
<context>
    <name>ssdk::app::SpareAreaBar</name>
    <message>
        <source>, %1 % used</source>
        <translation>, %1 % belegt</translation>
    </message>
    <message>
        <source>Spare area layout</source>
        <translation>Aufteilung des Reservebereichs</translation>
    </message>
</context>
<context>
    <name>ssdk::app::SpareAreaPage</name>
    <message>
        <source>Reading the filesystem&apos;s used space…</source>
        <translation>Der belegte Platz des Dateisystems wird gelesen …</translation>
    </message>
    <message>
        <source>Select a drive to set its spare area.</source>
        <translation>Wählen Sie ein Laufwerk, um seinen Reservebereich festzulegen.</translation>
    </message>
    <message>
        <source>Finish</source>
        <translation>Abschließen</translation>
    </message>
    <message>
        <source>Roll back</source>
        <translation>Zurückrollen</translation>
    </message>
    <message>
        <source>Spare area:</source>
        <translation>Reservebereich:</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>Jetzt</translation>
    </message>
    <message>
        <source>After</source>
        <translation>Danach</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <source>Unmount, shrink and remount</source>
        <translation>Aushängen, verkleinern und wieder einhängen</translation>
    </message>
    <message>
        <source>ext4 shrinks only unmounted: unmount it, shrink it and mount it again where and as it was</source>
        <translation>ext4 lässt sich nur ausgehängt verkleinern: aushängen, verkleinern und wieder so einhängen, wo und wie es war</translation>
    </message>
    <message>
        <source>Spare Area</source>
        <translation>Reservebereich</translation>
    </message>
    <message>
        <source>Spare Area · %1</source>
        <translation>Reservebereich · %1</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Factory spare: %1 % (estimated: %2 of NAND for %3 sold)</source>
        <translation>Werksreserve: %1 % (geschätzt: %2 NAND für %3 verkaufte Kapazität)</translation>
    </message>
    <message>
        <source>Factory spare: unknown for this drive</source>
        <translation>Werksreserve: für dieses Laufwerk unbekannt</translation>
    </message>
    <message>
        <source>Spare area you set: %1 (%2 %) unallocated at the end</source>
        <translation>Von Ihnen festgelegter Reservebereich: %1 (%2 %) am Ende nicht zugeordnet</translation>
    </message>
    <message>
        <source>used</source>
        <translation>belegt</translation>
    </message>
    <message>
        <source>free in the partition</source>
        <translation>frei in der Partition</translation>
    </message>
    <message>
        <source>spare area you set</source>
        <translation>von Ihnen festgelegte Reserve</translation>
    </message>
    <message>
        <source>factory spare</source>
        <translation>Werksreserve</translation>
    </message>
    <message>
        <source>Used space: %1
</source>
        <translation>Belegter Platz: %1
</translation>
    </message>
    <message>
        <source>
&quot;Unmount, shrink and remount&quot; can do it: nothing holds %1 open.
</source>
        <translation>
„Aushängen, verkleinern und wieder einhängen“ kann es: nichts hält %1 offen.
</translation>
    </message>
    <message>
        <source>
&quot;Unmount, shrink and remount&quot; cannot either:
</source>
        <translation>
„Aushängen, verkleinern und wieder einhängen“ kann es auch nicht:
</translation>
    </message>
    <message>
        <source>Cannot: %1.
</source>
        <translation>Nicht möglich: %1.
</translation>
    </message>
    <message>
        <source>An earlier change of %1 (%2 from %3 to %4) was interrupted. Finish it, or roll it back to the sizes before it. Nothing else can be changed until then.%5</source>
        <translation>Eine frühere Änderung von %1 (%2 von %3 auf %4) wurde unterbrochen. Schließen Sie sie ab oder rollen Sie sie auf die vorherigen Größen zurück. Bis dahin lässt sich nichts anderes ändern.%5</translation>
    </message>
    <message>
        <source>
It stopped at: %1</source>
        <translation>
Sie hielt an bei: %1</translation>
    </message>
    <message>
        <source>%1 partition %2 (%3) from %4 to %5, leaving %6 (%7 %) of %8 unallocated as spare area?%9</source>
        <translation>Partition %2 (%3) von %4 auf %5 %1 und damit %6 (%7 %) von %8 als Reservebereich frei lassen?%9</translation>
    </message>
    <message>
        <source>Shrink</source>
        <translation>verkleinern</translation>
    </message>
    <message>
        <source>Grow</source>
        <translation>vergrößern</translation>
    </message>
    <message>
        <source>

The partition table is backed up first, every step is journaled, and Undo grows it back.</source>
        <translation>

Die Partitionstabelle wird zuerst gesichert, jeder Schritt wird protokolliert, und „Rückgängig“ vergrößert sie wieder.</translation>
    </message>
    <message>
        <source>Unmount %1 from %2, shrink it (%3) from %4 to %5, and mount it at %2 again with the same options, leaving %6 (%7 %) of %8 unallocated as spare area?

Nothing may use %2 meanwhile. The partition table is backed up first, every step is journaled, and Undo grows it back.</source>
        <translation>%1 aus %2 aushängen, verkleinern (%3) von %4 auf %5 und mit denselben Optionen wieder unter %2 einhängen, sodass %6 (%7 %) von %8 als Reservebereich frei bleiben?

Nichts darf %2 in der Zwischenzeit verwenden. Die Partitionstabelle wird zuerst gesichert, jeder Schritt wird protokolliert, und „Rückgängig“ vergrößert sie wieder.</translation>
    </message>
    <message>
        <source>Set spare area</source>
        <translation>Reservebereich festlegen</translation>
    </message>
    <message>
        <source>Unmounting, shrinking and remounting…</source>
        <translation>Aushängen, verkleinern und wieder einhängen …</translation>
    </message>
    <message>
        <source>Applying…</source>
        <translation>Wird angewendet …</translation>
    </message>
    <message>
        <source>Undo spare area</source>
        <translation>Reservebereich rückgängig machen</translation>
    </message>
    <message>
        <source>Grow partition %1 back to %2 and its filesystem with it?</source>
        <translation>Partition %1 wieder auf %2 vergrößern, samt Dateisystem?</translation>
    </message>
    <message>
        <source>Undoing…</source>
        <translation>Wird rückgängig gemacht …</translation>
    </message>
    <message>
        <source>Finishing…</source>
        <translation>Wird abgeschlossen …</translation>
    </message>
    <message>
        <source>Rolling back…</source>
        <translation>Wird zurückgerollt …</translation>
    </message>
    <message>
        <source>Could not read the drive: %1</source>
        <translation>Das Laufwerk konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Undone: %1 is back to %2.</source>
        <translation>Rückgängig gemacht: %1 hat wieder %2.</translation>
    </message>
    <message>
        <source>Done: %1 is now %2; the space freed at the end is spare area and was trimmed.</source>
        <translation>Fertig: %1 hat jetzt %2; der am Ende freigegebene Platz ist Reservebereich und wurde getrimmt.</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Spare area</source>
        <translation>Reservebereich</translation>
    </message>
    <message>
        <source>The drive could not be read again: %1</source>
        <translation>Das Laufwerk konnte nicht erneut gelesen werden: %1</translation>
    </message>
</context>
<context>
    <name>ssdk::app::StartupScreenshot</name>
    <message>
        <source>could not write the screenshot to %1</source>
        <translation>das Bildschirmfoto konnte nicht nach %1 geschrieben werden</translation>
    </message>
    <message>
        <source>the %1 page was still loading after %2 s; %3 shows it loading</source>
        <translation>die Seite %1 lud nach %2 s noch; %3 zeigt sie beim Laden</translation>
    </message>
    <message>
        <source>no discovery result within %1 s</source>
        <translation>kein Erkennungsergebnis innerhalb von %1 s</translation>
    </message>
    <message>
        <source>drive %1 did not appear within %2 s</source>
        <translation>Laufwerk %1 ist innerhalb von %2 s nicht erschienen</translation>
    </message>
</context>
<context>
    <name>ssdk::app::ThroughputChart</name>
    <message>
        <source>Read MB/s</source>
        <translation>Lesen MB/s</translation>
    </message>
    <message>
        <source>Write MB/s</source>
        <translation>Schreiben MB/s</translation>
    </message>
    <message>
        <source>IOPS</source>
        <translation>IOPS</translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <source>MB/s</source>
        <translation>MB/s</translation>
    </message>
    <message>
        <source>Throughput chart</source>
        <translation>Durchsatzdiagramm</translation>
    </message>
    <message>
        <source>Read and write MB/s and IOPS of the last minutes</source>
        <translation>Lese- und Schreib-MB/s und IOPS der letzten Minuten</translation>
    </message>
</context>
<context>
    <name>ssdk::app::WhatIfPanel</name>
    <message>
        <source>What would more RAM buy? (replay a recorded trace)</source>
        <translation>Was brächte mehr RAM? (eine aufgezeichnete Spur abspielen)</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>Aufzeichnen</translation>
    </message>
    <message>
        <source>Records the block requests of the selected partition while you work as usual (administrator: the kernel&apos;s block tracepoint), then replays them below</source>
        <translation>Zeichnet die Blockanfragen der gewählten Partition auf, während Sie wie gewohnt arbeiten (Administrator: Block-Tracepoint des Kernels), und spielt sie unten ab</translation>
    </message>
    <message>
        <source>Record this workload for</source>
        <translation>Diese Last aufzeichnen für</translation>
    </message>
    <message>
        <source>Open trace…</source>
        <translation>Spur öffnen …</translation>
    </message>
    <message>
        <source>or open a trace, format</source>
        <translation>oder eine Spur öffnen, Format</translation>
    </message>
    <message>
        <source>Record the selected partition&apos;s requests here (or with `ssdkeeperctl trace record`), or open a recorded trace.</source>
        <translation>Zeichnen Sie hier die Anfragen der gewählten Partition auf (oder mit `ssdkeeperctl trace record`), oder öffnen Sie eine aufgezeichnete Spur.</translation>
    </message>
    <message>
        <source>SSD Keeper cache</source>
        <translation>SSD-Keeper-Cache</translation>
    </message>
    <message>
        <source>LRU</source>
        <translation>LRU</translation>
    </message>
    <message>
        <source>cache size (MiB)</source>
        <translation>Cache-Größe (MiB)</translation>
    </message>
    <message>
        <source>hit ratio</source>
        <translation>Trefferquote</translation>
    </message>
    <message>
        <source>Open a block trace</source>
        <translation>Eine Block-Spur öffnen</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <source>Another recording is still running.</source>
        <translation>Eine andere Aufzeichnung läuft noch.</translation>
    </message>
    <message>
        <source>Recording %1 for %2 s: use it as you usually do…</source>
        <translation>%1 wird %2 s lang aufgezeichnet: verwenden Sie es wie gewohnt …</translation>
    </message>
    <message>
        <source>Could not record %1: %2</source>
        <translation>%1 konnte nicht aufgezeichnet werden: %2</translation>
    </message>
    <message>
        <source>%1 saw no requests in %2 s: nothing to replay. Record while the workload runs.</source>
        <translation>%1 hatte in %2 s keine Anfragen: nichts abzuspielen. Zeichnen Sie auf, während die Last läuft.</translation>
    </message>
    <message>
        <source>Recorded %1 requests (%2 reads, %3 writes) from %4 in %5 s</source>
        <translation>%1 Anfragen (%2 Lese-, %3 Schreibanfragen) von %4 in %5 s aufgezeichnet</translation>
    </message>
    <message>
        <source> (stopped early)</source>
        <translation> (vorzeitig beendet)</translation>
    </message>
    <message>
        <source> (stopped at the request limit)</source>
        <translation> (an der Anfragegrenze beendet)</translation>
    </message>
    <message>
        <source> (the kernel dropped %1 events: its trace buffer was full)</source>
        <translation> (der Kernel hat %1 Ereignisse verworfen: sein Trace-Puffer war voll)</translation>
    </message>
    <message>
        <source>, saved as %1. </source>
        <translation>, gespeichert als %1. </translation>
    </message>
    <message>
        <source>Replaying…</source>
        <translation>Wird abgespielt …</translation>
    </message>
    <message>
        <source>Replaying %1…</source>
        <translation>%1 wird abgespielt …</translation>
    </message>
    <message>
        <source>Could not replay the trace: %1</source>
        <translation>Die Spur konnte nicht abgespielt werden: %1</translation>
    </message>
    <message>
        <source>%1 sizes up to %2: hit ratio %3 % with the cache&apos;s policy, %4 % with LRU</source>
        <translation>%1 Größen bis %2: Trefferquote %3 % mit der Strategie des Caches, %4 % mit LRU</translation>
    </message>
</context>
<context>
    <name>ssdk::app::ramcache::BenefitPanel</name>
    <message>
        <source>What it buys</source>
        <translation>Was es bringt</translation>
    </message>
    <message>
        <source>A short fio run on a test file in the partition&apos;s filesystem, without the cache and then with it (the settings above); the cache is put back as it was afterwards.</source>
        <translation>Ein kurzer fio-Lauf mit einer Testdatei im Dateisystem der Partition, erst ohne und dann mit Cache (Einstellungen oben); danach wird der Cache wiederhergestellt, wie er war.</translation>
    </message>
    <message>
        <source>Compare with and without cache</source>
        <translation>Mit und ohne Cache vergleichen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Without cache</source>
        <translation>Ohne Cache</translation>
    </message>
    <message>
        <source>With cache</source>
        <translation>Mit Cache</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <source>Sequential read (1 MiB, Q8)</source>
        <translation>Sequenzielles Lesen (1 MiB, Q8)</translation>
    </message>
    <message>
        <source>Sequential write (1 MiB, Q8)</source>
        <translation>Sequenzielles Schreiben (1 MiB, Q8)</translation>
    </message>
    <message>
        <source>4K random read (Q1)</source>
        <translation>4K zufälliges Lesen (Q1)</translation>
    </message>
    <message>
        <source>4K random write (Q1)</source>
        <translation>4K zufälliges Schreiben (Q1)</translation>
    </message>
    <message>
        <source>The saved comparison could not be read: %1</source>
        <translation>Der gespeicherte Vergleich konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Select a partition.</source>
        <translation>Wählen Sie eine Partition.</translation>
    </message>
    <message>
        <source>Its cache is set up for the next boot: turn that off before comparing.</source>
        <translation>Ihr Cache ist für den nächsten Start eingerichtet: schalten Sie das vor dem Vergleich aus.</translation>
    </message>
    <message>
        <source>%1 is not mounted: the comparison writes a test file in its filesystem. Mount it first.</source>
        <translation>%1 ist nicht eingehängt: der Vergleich schreibt eine Testdatei in sein Dateisystem. Hängen Sie es zuerst ein.</translation>
    </message>
    <message>
        <source>%1 has %2 free: the comparison needs %3 for its test file.</source>
        <translation>%1 hat %2 frei: der Vergleich braucht %3 für seine Testdatei.</translation>
    </message>
    <message>
        <source>%1 cannot be written here: the comparison writes a test file in it.</source>
        <translation>%1 kann hier nicht beschrieben werden: der Vergleich schreibt eine Testdatei hinein.</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen …</translation>
    </message>
    <message>
        <source>Turning your cache off…</source>
        <translation>Ihr Cache wird ausgeschaltet …</translation>
    </message>
    <message>
        <source>Turning the cache on (%1)…</source>
        <translation>Der Cache wird eingeschaltet (%1) …</translation>
    </message>
    <message>
        <source>Turning the cache off…</source>
        <translation>Der Cache wird ausgeschaltet …</translation>
    </message>
    <message>
        <source>The cache could not be turned off: %1</source>
        <translation>Der Cache konnte nicht ausgeschaltet werden: %1</translation>
    </message>
    <message>
        <source>Putting your cache back…</source>
        <translation>Ihr Cache wird wiederhergestellt …</translation>
    </message>
    <message>
        <source>Your cache could not be put back: %1</source>
        <translation>Ihr Cache konnte nicht wiederhergestellt werden: %1</translation>
    </message>
    <message>
        <source>The cache could not be changed: %1</source>
        <translation>Der Cache konnte nicht geändert werden: %1</translation>
    </message>
    <message>
        <source>Measuring with the cache…</source>
        <translation>Messung mit Cache …</translation>
    </message>
    <message>
        <source>Measuring without the cache…</source>
        <translation>Messung ohne Cache …</translation>
    </message>
    <message>
        <source>Measuring failed: %1</source>
        <translation>Messung fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Done; saved in %1.</source>
        <translation>Fertig; gespeichert in %1.</translation>
    </message>
    <message>
        <source>Done, but not saved: %1</source>
        <translation>Fertig, aber nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>The cache is as it was before.</source>
        <translation>Der Cache ist wie zuvor.</translation>
    </message>
    <message>
        <source>Not compared yet on this partition.</source>
        <translation>Auf dieser Partition noch nicht verglichen.</translation>
    </message>
    <message>
        <source>Measured %1 with %2 (%3 test file, %4 s per test).</source>
        <translation>%1 mit %2 gemessen (%3 Testdatei, %4 s pro Test).</translation>
    </message>
    <message>
        <source>The settings above differ (%1): compare again to measure them.</source>
        <translation>Die Einstellungen oben weichen ab (%1): vergleichen Sie erneut, um sie zu messen.</translation>
    </message>
</context>
<context>
    <name>ssdk::app::ramcache::CacheController</name>
    <message>
        <source>The cache is off; the partition is as it was.</source>
        <translation>Der Cache ist aus; die Partition ist wie zuvor.</translation>
    </message>
    <message>
        <source>Flushed: every dirty block is on the drive.</source>
        <translation>Zurückgeschrieben: jeder geänderte Block ist auf dem Laufwerk.</translation>
    </message>
    <message>
        <source>Mode changed.</source>
        <translation>Modus geändert.</translation>
    </message>
    <message>
        <source>Power policy saved.</source>
        <translation>Energierichtlinie gespeichert.</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>At next boot %1 stacks the cache, and /etc/fstab mounts %2. Nothing changed now; untick to put fstab back.</source>
        <translation>Beim nächsten Start legt %1 den Cache an, und /etc/fstab hängt %2 ein. Jetzt wurde nichts geändert; Haken entfernen stellt fstab wieder her.</translation>
    </message>
    <message>
        <source>The cache is on: mount %1 (done for you when it was mounted).</source>
        <translation>Der Cache ist an: hängen Sie %1 ein (wurde für Sie erledigt, falls es eingehängt war).</translation>
    </message>
    <message>
        <source>Cache at next boot</source>
        <translation>Cache beim nächsten Start</translation>
    </message>
    <message>
        <source>&lt;p&gt;SSD Keeper will change line %1 of %2 so that the filesystem is mounted from the cache, which a boot unit stacks before it. Nothing else changes now; turning the cache off puts the line back exactly.&lt;/p&gt;&lt;pre&gt;%3&lt;/pre&gt;</source>
        <translation>&lt;p&gt;SSD Keeper ändert Zeile %1 von %2, sodass das Dateisystem aus dem Cache eingehängt wird, den eine Start-Unit vorher anlegt. Sonst ändert sich jetzt nichts; das Ausschalten des Caches stellt die Zeile genau wieder her.&lt;/p&gt;&lt;pre&gt;%3&lt;/pre&gt;</translation>
    </message>
    <message>
        <source>Change fstab</source>
        <translation>fstab ändern</translation>
    </message>
    <message>
        <source>Nothing changed.</source>
        <translation>Nichts geändert.</translation>
    </message>
</context>
<context>
    <name>ssdk::app::ramcache::LiveStatsPanel</name>
    <message>
        <source>Live</source>
        <translation>Live</translation>
    </message>
    <message>
        <source>No cache is active on this drive.</source>
        <translation>Auf diesem Laufwerk ist kein Cache aktiv.</translation>
    </message>
    <message>
        <source>Flush</source>
        <translation>Zurückschreiben</translation>
    </message>
    <message>
        <source>Write every dirty block to the drive now</source>
        <translation>Jeden geänderten Block jetzt auf das Laufwerk schreiben</translation>
    </message>
    <message>
        <source>Hit ratio (%)</source>
        <translation>Trefferquote (%)</translation>
    </message>
    <message>
        <source>Dirty (MiB)</source>
        <translation>Geändert (MiB)</translation>
    </message>
    <message>
        <source>RAM used (MiB)</source>
        <translation>Belegter RAM (MiB)</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <source>Statistics unavailable: %1</source>
        <translation>Statistik nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>Hit ratio %1 % (%2 hits, %3 misses) · dirty %4 · RAM used %5 of %6</source>
        <translation>Trefferquote %1 % (%2 Treffer, %3 Fehlgriffe) · geändert %4 · RAM belegt %5 von %6</translation>
    </message>
    <message>
        <source>sequential cutoff %1</source>
        <translation>sequenzielle Grenze %1</translation>
    </message>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>writeback percent %1</source>
        <translation>Write-back-Anteil %1</translation>
    </message>
</context>
<context>
    <name>ssdk::app::ramcache::SettingsForm</name>
    <message>
        <source>Cache</source>
        <translation>Cache</translation>
    </message>
    <message>
        <source>Partition</source>
        <translation>Partition</translation>
    </message>
    <message>
        <source>Cache this partition in RAM</source>
        <translation>Diese Partition im RAM zwischenspeichern</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>Backend</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Compression</source>
        <translation>Kompression</translation>
    </message>
    <message>
        <source>Write-through (safe: every write reaches the drive)</source>
        <translation>Write-through (sicher: jeder Schreibvorgang erreicht das Laufwerk)</translation>
    </message>
    <message>
        <source>Write-back (faster writes)</source>
        <translation>Write-back (schnelleres Schreiben)</translation>
    </message>
    <message>
        <source>Write-back keeps recent writes in RAM: on a power loss or crash the last seconds of writes that were not yet flushed are lost. Use it on a laptop with a battery or a desktop on a UPS.</source>
        <translation>Write-back hält neue Schreibvorgänge im RAM: bei Stromausfall oder Absturz gehen die letzten Sekunden noch nicht zurückgeschriebener Daten verloren. Verwenden Sie es auf einem Laptop mit Akku oder einem Desktop an einer USV.</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Modus</translation>
    </message>
    <message>
        <source>Apply now: unmount, stack the cache, mount at the same place</source>
        <translation>Jetzt anwenden: aushängen, Cache anlegen, an derselben Stelle einhängen</translation>
    </message>
    <message>
        <source>The partition is mounted: it is unmounted, the cache is stacked under it, and it is mounted again at the same place with the same options.</source>
        <translation>Die Partition ist eingehängt: sie wird ausgehängt, der Cache wird darunter angelegt, und sie wird an derselben Stelle mit denselben Optionen wieder eingehängt.</translation>
    </message>
    <message>
        <source>At next boot instead (nothing changes now)</source>
        <translation>Stattdessen beim nächsten Start (jetzt ändert sich nichts)</translation>
    </message>
    <message>
        <source>A boot unit stacks the cache and /etc/fstab mounts it; the fstab change is shown before anything is written.</source>
        <translation>Eine Start-Unit legt den Cache an und /etc/fstab hängt ihn ein; die Änderung an fstab wird gezeigt, bevor etwas geschrieben wird.</translation>
    </message>
    <message>
        <source>On battery or before suspend: flush, then write-through</source>
        <translation>Im Akkubetrieb oder vor der Bereitschaft: zurückschreiben, dann Write-through</translation>
    </message>
    <message>
        <source>Back to write-back on mains power or after resume. Before shutdown write-back is always flushed and switched to write-through.</source>
        <translation>Zurück zu Write-back im Netzbetrieb oder nach dem Aufwachen. Vor dem Herunterfahren wird Write-back immer zurückgeschrieben und auf Write-through umgestellt.</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>Energie</translation>
    </message>
    <message>
        <source>%1 — unavailable</source>
        <translation>%1 – nicht verfügbar</translation>
    </message>
    <message>
        <source>live ratio %1×</source>
        <translation>aktuelles Verhältnis %1×</translation>
    </message>
    <message>
        <source>live ratio: nothing compressed yet</source>
        <translation>aktuelles Verhältnis: noch nichts komprimiert</translation>
    </message>
    <message>
        <source>Write-through now because of %1; write-back returns on mains power or resume.</source>
        <translation>Jetzt Write-through wegen %1; Write-back kehrt im Netzbetrieb oder nach dem Aufwachen zurück.</translation>
    </message>
    <message>
        <source>At boot: %1, mounted through %2.</source>
        <translation>Beim Start: %1, eingehängt über %2.</translation>
    </message>
    <message>
        <source>Scheduled: the cache is stacked at the next boot.</source>
        <translation>Geplant: der Cache wird beim nächsten Start angelegt.</translation>
    </message>
    <message>
        <source>Unavailable here: %1</source>
        <translation>Hier nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Not available here — %1</source>
        <translation>Hier nicht verfügbar – %1</translation>
    </message>
    <message>
        <source>The partition is mounted: tick &quot;apply now&quot; to unmount it, stack the cache and mount it again.</source>
        <translation>Die Partition ist eingehängt: kreuzen Sie „Jetzt anwenden“ an, um sie auszuhängen, den Cache anzulegen und sie wieder einzuhängen.</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>Wird gelesen …</translation>
    </message>
    <message>
        <source>Backends unknown</source>
        <translation>Backends unbekannt</translation>
    </message>
</context>
<context>
    <name>ssdk::app::ramcache::SizePicker</name>
    <message>
        <source>Suggested</source>
        <translation>Empfohlen</translation>
    </message>
    <message>
        <source>%1 of %2 RAM (%3 free). Suggested: %4 (a quarter of the RAM, at most 4 GiB).</source>
        <translation>%1 von %2 RAM (%3 frei). Empfohlen: %4 (ein Viertel des RAM, höchstens 4 GiB).</translation>
    </message>
    <message>
        <source>More than suggested: leave enough RAM for programs.</source>
        <translation>Mehr als empfohlen: lassen Sie genug RAM für Programme.</translation>
    </message>
    <message>
        <source>Cache size</source>
        <translation>Cache-Größe</translation>
    </message>
</context>
<context>
    <name>ssdk::app::ramcache::TuningBox</name>
    <message>
        <source>Advanced</source>
        <translation>Erweitert</translation>
    </message>
    <message>
        <source>Sequential cutoff</source>
        <translation>Sequenzielle Grenze</translation>
    </message>
    <message>
        <source> KiB</source>
        <translation> KiB</translation>
    </message>
    <message>
        <source>0 (never bypass)</source>
        <translation>0 (nie umgehen)</translation>
    </message>
    <message>
        <source>Writeback percent</source>
        <translation>Write-back-Anteil</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>Unticked: the backend&apos;s default.</source>
        <translation>Ohne Haken: Vorgabe des Backends.</translation>
    </message>
    <message>
        <source>Sequential reads and writes longer than this bypass the cache (bcache&apos;s sequential_cutoff). 0: nothing bypasses it.</source>
        <translation>Sequenzielle Lese- und Schreibvorgänge, die länger sind, umgehen den Cache (sequential_cutoff von bcache). 0: nichts umgeht ihn.</translation>
    </message>
    <message>
        <source>bcache keeps writing back until dirty data is below this share of the cache (write-back only).</source>
        <translation>bcache schreibt so lange zurück, bis geänderte Daten unter diesem Anteil des Caches liegen (nur Write-back).</translation>
    </message>
    <message>
        <source>Not with %1: %2</source>
        <translation>Nicht mit %1: %2</translation>
    </message>
    <message>
        <source>it has no such setting</source>
        <translation>es hat keine solche Einstellung</translation>
    </message>
</context>
</TS>
