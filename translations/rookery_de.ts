<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>Autostart</name>
    <message>
        <source>Cannot create the folder %1</source>
        <translation>Der Ordner %1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Cannot remove %1: %2</source>
        <translation>%1 kann nicht entfernt werden: %2</translation>
    </message>
    <message>
        <source>Cannot change %1</source>
        <translation>%1 kann nicht geändert werden</translation>
    </message>
    <message>
        <source>A program path with a line break cannot start with the session</source>
        <translation>Ein Programmpfad mit Zeilenumbruch kann nicht mit der Sitzung starten</translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
    <message>
        <source>%1 / %2 GiB</source>
        <translation>%1 / %2 GiB</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 T %2 h</translation>
    </message>
    <message>
        <source>%1 PFLOP</source>
        <translation>%1 PFLOP</translation>
    </message>
    <message>
        <source>%1 TFLOP</source>
        <translation>%1 TFLOP</translation>
    </message>
    <message>
        <source>%1 TFLOP/s</source>
        <translation>%1 TFLOP/s</translation>
    </message>
    <message>
        <source>%1 GFLOP/s</source>
        <translation>%1 GFLOP/s</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation>%1 °C</translation>
    </message>
    <message>
        <source>%1 W of %2 W</source>
        <translation>%1 W von %2 W</translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation>%1 W</translation>
    </message>
    <message>
        <source>Not running</source>
        <translation>Läuft nicht</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>Startet</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Pausiert</translation>
    </message>
    <message>
        <source>Contributing</source>
        <translation>Trägt bei</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>Wird beendet</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Unbekannt</translation>
    </message>
    <message>
        <source>%1 GFLOP</source>
        <translation>%1 GFLOP</translation>
    </message>
    <message>
        <source>block %1 of %2</source>
        <translation>Block %1 von %2</translation>
    </message>
    <message>
        <source>blocks %1–%2 of %3</source>
        <translation>Blöcke %1–%2 von %3</translation>
    </message>
    <message>
        <source>%1 samples/s</source>
        <translation>%1 Samples/s</translation>
    </message>
</context>
<context>
    <name>Reasons</name>
    <message>
        <source>Measuring this PC&apos;s compute speed</source>
        <translation>Die Rechenleistung dieses PCs wird gemessen</translation>
    </message>
    <message>
        <source>Paused: press Contribute to start</source>
        <translation>Pausiert: Klicken Sie auf „Beitragen“, um zu beginnen</translation>
    </message>
    <message>
        <source>Slowed: %1</source>
        <translation>Gedrosselt: %1</translation>
    </message>
    <message>
        <source>Paused: %1</source>
        <translation>Pausiert: %1</translation>
    </message>
    <message>
        <source>Training stage %1 of %2 in pipeline %3 (%4)</source>
        <translation>Trainiert Stufe %1 von %2 in Pipeline %3 (%4)</translation>
    </message>
    <message>
        <source>Volunteer of job “%1”</source>
        <translation>Freiwilliger der Aufgabe „%1“</translation>
    </message>
    <message>
        <source>Volunteer of job “%1”: %2</source>
        <translation>Freiwilliger der Aufgabe „%1“: %2</translation>
    </message>
    <message>
        <source>Benchmark: matrix products on %1</source>
        <translation>Leistungstest: Matrixprodukte auf %1</translation>
    </message>
    <message>
        <source>Stopping: saving state</source>
        <translation>Wird beendet: Zustand wird gespeichert</translation>
    </message>
    <message>
        <source>Cannot start: %1</source>
        <translation>Kann nicht starten: %1</translation>
    </message>
    <message>
        <source>Work failed: %1</source>
        <translation>Arbeit fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>snoozed until %1</source>
        <translation>schlummert bis %1</translation>
    </message>
    <message>
        <source>outside the hours of the schedule</source>
        <translation>außerhalb der Zeiten des Zeitplans</translation>
    </message>
    <message>
        <source>on battery</source>
        <translation>im Akkubetrieb</translation>
    </message>
    <message>
        <source>%1 is running</source>
        <translation>%1 läuft</translation>
    </message>
    <message>
        <source>a full-screen application runs</source>
        <translation>eine Vollbildanwendung läuft</translation>
    </message>
    <message>
        <source>the PC is in use</source>
        <translation>der PC wird benutzt</translation>
    </message>
    <message>
        <source>the PC is idle and computing while idle is off</source>
        <translation>der PC ist im Leerlauf und Rechnen im Leerlauf ist aus</translation>
    </message>
    <message>
        <source>the PC is in use and the GPU is not used then</source>
        <translation>der PC wird benutzt und die GPU wird dann nicht genutzt</translation>
    </message>
    <message>
        <source>GPU at %1, above %2</source>
        <translation>GPU bei %1, über %2</translation>
    </message>
    <message>
        <source>other programs use %1 of the CPU (resumes below %2)</source>
        <translation>andere Programme nutzen %1 der CPU (weiter unter %2)</translation>
    </message>
    <message>
        <source>other programs use %1 of the CPU</source>
        <translation>andere Programme nutzen %1 der CPU</translation>
    </message>
    <message>
        <source>memory %1, more than the %2 allowed</source>
        <translation>Speicher %1, mehr als die erlaubten %2</translation>
    </message>
    <message>
        <source>the PC is idle</source>
        <translation>der PC ist im Leerlauf</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n core(s)</source>
        <translation>
            <numerusform>%1 von %n Kern</numerusform>
            <numerusform>%1 von %n Kernen</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 CPU time</source>
        <translation>%1 CPU-Zeit</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <source>connecting to the coordinator</source>
        <translation>Verbindung zum Koordinator wird aufgebaut</translation>
    </message>
    <message>
        <source>connected (version %1)</source>
        <translation>verbunden (Version %1)</translation>
    </message>
    <message>
        <source>unreachable: %1</source>
        <translation>nicht erreichbar: %1</translation>
    </message>
    <message>
        <source>joined job “%1”</source>
        <translation>der Aufgabe „%1“ beigetreten</translation>
    </message>
    <message>
        <source>refused this PC: %1</source>
        <translation>hat diesen PC abgelehnt: %1</translation>
    </message>
    <message>
        <source>banned this PC from the job: %1</source>
        <translation>hat diesen PC von der Aufgabe ausgeschlossen: %1</translation>
    </message>
    <message>
        <source>the coordinator runs no job</source>
        <translation>der Koordinator führt keine Aufgabe aus</translation>
    </message>
    <message>
        <source>the coordinator runs another job (“%1”)</source>
        <translation>der Koordinator führt eine andere Aufgabe aus („%1“)</translation>
    </message>
    <message>
        <source>the job is invite-only and this invite is not valid</source>
        <translation>die Aufgabe ist nur mit Einladung zugänglich, und diese Einladung ist ungültig</translation>
    </message>
    <message>
        <source>this invite has expired; ask the job&apos;s owner for a new one</source>
        <translation>diese Einladung ist abgelaufen; bitten Sie den Besitzer der Aufgabe um eine neue</translation>
    </message>
    <message>
        <source>the job&apos;s owner revoked this invite</source>
        <translation>der Besitzer der Aufgabe hat diese Einladung widerrufen</translation>
    </message>
    <message>
        <source>this PC&apos;s addresses are not TCP addresses</source>
        <translation>die Adressen dieses PCs sind keine TCP-Adressen</translation>
    </message>
    <message>
        <source>this PC&apos;s measured speed, memory or network look implausible</source>
        <translation>die gemessene Geschwindigkeit, der Speicher oder das Netz dieses PCs wirken unplausibel</translation>
    </message>
    <message>
        <source>a ring partner proved, by its own signatures, that it handed the ring false averaged values</source>
        <translation>ein Ring-Partner hat anhand seiner eigenen Signaturen bewiesen, dass er dem Ring falsche gemittelte Werte übergeben hat</translation>
    </message>
    <message numerus="yes">
        <source>%1 of its %n ring partner(s) reject its averaging contributions</source>
        <translation>
            <numerusform>%1 von %n Ring-Partner lehnt seine Beiträge zur Mittelung ab</numerusform>
            <numerusform>%1 von %n Ring-Partnern lehnen seine Beiträge zur Mittelung ab</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of the %n stage(s) it sends to caught its activations wrong in spot-checks</source>
        <translation>
            <numerusform>%1 von %n Stufe, an die er sendet, hat bei Stichproben falsche Aktivierungen entdeckt</numerusform>
            <numerusform>%1 von %n Stufen, an die er sendet, haben bei Stichproben falsche Aktivierungen entdeckt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of the %n stage(s) it returns gradients to caught its gradients wrong in spot-checks</source>
        <translation>
            <numerusform>%1 von %n Stufe, an die er Gradienten zurückgibt, hat bei Stichproben falsche Gradienten entdeckt</numerusform>
            <numerusform>%1 von %n Stufen, an die er Gradienten zurückgibt, haben bei Stichproben falsche Gradienten entdeckt</numerusform>
        </translation>
    </message>
    <message>
        <source>a spare: its pipeline is faster without this PC, which waits to fill a seat that falls empty</source>
        <translation>in Reserve: seine Pipeline ist ohne diesen PC schneller; er wartet, bis ein Platz frei wird</translation>
    </message>
    <message>
        <source>every pipeline of its bandwidth tier already has one PC per block</source>
        <translation>jede Pipeline seiner Bandbreitenstufe hat bereits einen PC pro Block</translation>
    </message>
    <message>
        <source>the volunteers together do not hold the model yet (%1)</source>
        <translation>die Freiwilligen fassen das Modell zusammen noch nicht (%1)</translation>
    </message>
    <message>
        <source>it joined after the plan was made</source>
        <translation>er ist nach der Planung beigetreten</translation>
    </message>
    <message>
        <source>unreachable: training on with the last plan</source>
        <translation>nicht erreichbar: Training läuft mit dem letzten Plan weiter</translation>
    </message>
    <message>
        <source>pipeline %1, stage %2</source>
        <translation>Pipeline %1, Stufe %2</translation>
    </message>
    <message>
        <source>waiting for a plan</source>
        <translation>wartet auf einen Plan</translation>
    </message>
    <message>
        <source>not in the plan: %1</source>
        <translation>nicht im Plan: %1</translation>
    </message>
    <message>
        <source>re-planning</source>
        <translation>plant neu</translation>
    </message>
    <message>
        <source>joining again (the coordinator restarted)</source>
        <translation>tritt erneut bei (der Koordinator wurde neu gestartet)</translation>
    </message>
    <message>
        <source>fetching the job&apos;s data: %1 of %2</source>
        <translation>Daten des Jobs werden geladen: %1 von %2</translation>
    </message>
    <message>
        <source>no pipeline yet: %1</source>
        <translation>noch keine Pipeline: %1</translation>
    </message>
    <message>
        <source>the coordinator ignored this PC&apos;s report</source>
        <translation>der Koordinator hat den Bericht dieses PCs ignoriert</translation>
    </message>
    <message>
        <source>the coordinator cannot check invites (%1)</source>
        <translation>der Koordinator kann Einladungen nicht prüfen (%1)</translation>
    </message>
    <message>
        <source>no volunteer holds the job&apos;s data yet</source>
        <translation>noch kein Freiwilliger hat die Daten des Jobs</translation>
    </message>
    <message>
        <source>no other PC can reach this one yet, and no relay carries it</source>
        <translation>noch kann kein anderer PC diesen erreichen, und kein Relay vermittelt ihn</translation>
    </message>
    <message>
        <source>input idleness</source>
        <translation>Eingabe-Leerlauf</translation>
    </message>
    <message>
        <source>full-screen</source>
        <translation>Vollbild</translation>
    </message>
    <message>
        <source>battery</source>
        <translation>Akku</translation>
    </message>
    <message>
        <source>programs</source>
        <translation>Programme</translation>
    </message>
    <message>
        <source>CPU load</source>
        <translation>CPU-Last</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>no input for %1</source>
        <translation>seit %1 keine Eingabe</translation>
    </message>
    <message>
        <source>nothing reports it here: the PC counts as in use</source>
        <translation>hier meldet sie nichts: der PC gilt als benutzt</translation>
    </message>
    <message>
        <source>no desktop session reports it</source>
        <translation>keine Desktop-Sitzung meldet es</translation>
    </message>
    <message>
        <source>no full-screen application</source>
        <translation>keine Vollbildanwendung</translation>
    </message>
    <message>
        <source>on mains power</source>
        <translation>am Netz</translation>
    </message>
    <message>
        <source>no programs listed</source>
        <translation>keine Programme eingetragen</translation>
    </message>
    <message>
        <source>running: %1</source>
        <translation>laufen: %1</translation>
    </message>
    <message numerus="yes">
        <source>none of the %n listed program(s) runs</source>
        <translation>
            <numerusform>%n eingetragenes Programm, es läuft nicht</numerusform>
            <numerusform>keines der %n eingetragenen Programme läuft</numerusform>
        </translation>
    </message>
    <message>
        <source>other programs %1</source>
        <translation>andere Programme %1</translation>
    </message>
    <message>
        <source>hottest GPU %1</source>
        <translation>heißeste GPU %1</translation>
    </message>
    <message>
        <source>%1 resident</source>
        <translation>%1 belegt</translation>
    </message>
    <message>
        <source>Compute while I use the PC</source>
        <translation>Rechnen, während ich den PC benutze</translation>
    </message>
    <message>
        <source>Compute while the PC is idle</source>
        <translation>Rechnen, während der PC im Leerlauf ist</translation>
    </message>
    <message>
        <source>CPU cores</source>
        <translation>CPU-Kerne</translation>
    </message>
    <message>
        <source>CPU time</source>
        <translation>CPU-Zeit</translation>
    </message>
    <message>
        <source>Use the GPU</source>
        <translation>Die GPU nutzen</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Arbeitsspeicher</translation>
    </message>
    <message>
        <source>The PC is idle after no input for</source>
        <translation>Der PC gilt als im Leerlauf nach keiner Eingabe für</translation>
    </message>
    <message>
        <source>Pause while other programs use more CPU than</source>
        <translation>Pausieren, wenn andere Programme mehr CPU nutzen als</translation>
    </message>
    <message>
        <source>Pause on battery</source>
        <translation>Im Akkubetrieb pausieren</translation>
    </message>
    <message>
        <source>Compute only at these times (empty: any time)</source>
        <translation>Nur zu diesen Zeiten rechnen (leer: jederzeit)</translation>
    </message>
    <message>
        <source>Upload at most</source>
        <translation>Höchstens hochladen</translation>
    </message>
    <message>
        <source>Download at most</source>
        <translation>Höchstens herunterladen</translation>
    </message>
    <message>
        <source>Pause while a full-screen application runs</source>
        <translation>Pausieren, während eine Vollbildanwendung läuft</translation>
    </message>
    <message>
        <source>Pause while these programs run</source>
        <translation>Pausieren, während diese Programme laufen</translation>
    </message>
    <message>
        <source>Pause the GPU above</source>
        <translation>Die GPU pausieren über</translation>
    </message>
    <message>
        <source>On pause, finish the micro-batches already started (peers see a clean stop)</source>
        <translation>Beim Pausieren die begonnenen Mikro-Batches fertig rechnen (Partner sehen einen sauberen Halt)</translation>
    </message>
    <message>
        <source>% of cores</source>
        <translation>% der Kerne</translation>
    </message>
    <message>
        <source>% of the time</source>
        <translation>% der Zeit</translation>
    </message>
    <message>
        <source>% of RAM</source>
        <translation>% des RAM</translation>
    </message>
    <message>
        <source>min</source>
        <translation>min</translation>
    </message>
    <message>
        <source>% (0: never)</source>
        <translation>% (0: nie)</translation>
    </message>
    <message>
        <source>KiB/s (0: unlimited)</source>
        <translation>KiB/s (0: unbegrenzt)</translation>
    </message>
    <message>
        <source>°C (0: no limit)</source>
        <translation>°C (0: keine Grenze)</translation>
    </message>
    <message>
        <source>no NVIDIA driver</source>
        <translation>kein NVIDIA-Treiber</translation>
    </message>
    <message>
        <source>the NVIDIA driver&apos;s library is too old</source>
        <translation>die Bibliothek des NVIDIA-Treibers ist zu alt</translation>
    </message>
    <message>
        <source>the NVIDIA driver did not start (is it loaded?)</source>
        <translation>der NVIDIA-Treiber ist nicht gestartet (ist er geladen?)</translation>
    </message>
    <message>
        <source>the NVIDIA driver reports no GPU</source>
        <translation>der NVIDIA-Treiber meldet keine GPU</translation>
    </message>
    <message numerus="yes">
        <source>%n NVIDIA GPU(s)</source>
        <translation>
            <numerusform>%n NVIDIA-GPU</numerusform>
            <numerusform>%n NVIDIA-GPUs</numerusform>
        </translation>
    </message>
    <message>
        <source>Reached on this PC only: the swarm runs here</source>
        <translation>Nur auf diesem PC erreichbar: der Schwarm läuft hier</translation>
    </message>
    <message>
        <source>Reached directly at %1</source>
        <translation>Direkt erreichbar unter %1</translation>
    </message>
    <message>
        <source>Reached through the router&apos;s port mapping (%1) at %2</source>
        <translation>Erreichbar über die Portfreigabe des Routers (%1) unter %2</translation>
    </message>
    <message>
        <source>Reached through a relay at %1: peers&apos; traffic passes it encrypted</source>
        <translation>Erreichbar über ein Relais bei %1: der Verkehr der Partner läuft verschlüsselt hindurch</translation>
    </message>
    <message>
        <source>Reached by connection reversal: this PC dials its neighbours itself</source>
        <translation>Erreichbar durch Verbindungsumkehr: dieser PC verbindet sich selbst mit seinen Nachbarn</translation>
    </message>
    <message>
        <source>Not reachable from the internet: waiting for a relay to carry this PC</source>
        <translation>Aus dem Internet nicht erreichbar: wartet auf ein Relais, das diesen PC weiterleitet</translation>
    </message>
    <message>
        <source>Reached by connection reversal (%1): this PC dials its neighbours itself</source>
        <translation>Erreichbar durch Verbindungsumkehr (%1): dieser PC verbindet sich selbst mit seinen Nachbarn</translation>
    </message>
    <message>
        <source>Not reachable from the internet (%1): waiting for a relay to carry this PC</source>
        <translation>Aus dem Internet nicht erreichbar (%1): wartet auf ein Relais, das diesen PC weiterleitet</translation>
    </message>
    <message numerus="yes">
        <source>the job admits at most %n volunteer(s) from one address, and already has them from %1</source>
        <translation>
            <numerusform>der Job nimmt höchstens %n Freiwilligen von einer Adresse auf und hat ihn schon von %1</numerusform>
            <numerusform>der Job nimmt höchstens %n Freiwillige von einer Adresse auf und hat sie schon von %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the job admits at most %n volunteer(s) from one network, and already has them from %1</source>
        <translation>
            <numerusform>der Job nimmt höchstens %n Freiwilligen aus einem Netz auf und hat ihn schon aus %1</numerusform>
            <numerusform>der Job nimmt höchstens %n Freiwillige aus einem Netz auf und hat sie schon aus %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the job asks each join for a proof of work of %n bit(s), and this one carried none</source>
        <translation>
            <numerusform>der Job verlangt bei jedem Beitritt einen Arbeitsnachweis von %n Bit, und dieser hatte keinen</numerusform>
            <numerusform>der Job verlangt bei jedem Beitritt einen Arbeitsnachweis von %n Bit, und dieser hatte keinen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>this join&apos;s proof of work gives %1 of the %n bit(s) the job asks for</source>
        <translation>
            <numerusform>der Arbeitsnachweis dieses Beitritts ergibt %1 der %n Bit, die der Job verlangt</numerusform>
            <numerusform>der Arbeitsnachweis dieses Beitritts ergibt %1 der %n Bit, die der Job verlangt</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Rookery: lend this PC to a swarm that trains a neural network together.</source>
        <translation>Rookery: Stellen Sie diesen PC einem Schwarm zur Verfügung, der gemeinsam ein neuronales Netz trainiert.</translation>
    </message>
    <message>
        <source>Folder of rookery-node&apos;s control sockets (default: $XDG_RUNTIME_DIR/rookery).</source>
        <translation>Ordner der Steuer-Sockets von rookery-node (Standard: $XDG_RUNTIME_DIR/rookery).</translation>
    </message>
    <message>
        <source>The rookery-node program to start when none runs.</source>
        <translation>Das rookery-node-Programm, das gestartet wird, wenn keines läuft.</translation>
    </message>
    <message>
        <source>Start in the tray, without opening the window.</source>
        <translation>Im Infobereich starten, ohne das Fenster zu öffnen.</translation>
    </message>
    <message>
        <source>Contribute at once: ask rookery-node to contribute as soon as it answers (starting it when none runs).</source>
        <translation>Sofort beitragen: rookery-node beitragen lassen, sobald er antwortet (und ihn starten, wenn keiner läuft).</translation>
    </message>
    <message>
        <source>Light or dark colours, or those of the desktop (default: the appearance/colours setting, else system).</source>
        <translation>Helle oder dunkle Farben oder die der Arbeitsumgebung (Standard: die Einstellung appearance/colours, sonst system).</translation>
    </message>
    <message>
        <source>Rookery could not snooze</source>
        <translation>Rookery konnte nicht schlummern</translation>
    </message>
    <message>
        <source>An invite link to join (rookery://join?…): Rookery offers to join its swarm.</source>
        <translation>Ein Einladungslink (rookery://join?…): Rookery bietet an, seinem Schwarm beizutreten.</translation>
    </message>
</context>
<context>
    <name>rookery::ui::ContributionCard</name>
    <message>
        <source>%1 per day</source>
        <translation>%1 pro Tag</translation>
    </message>
    <message>
        <source>%1 TFLOP</source>
        <translation>%1 TFLOP</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>Your contribution</source>
        <translation>Ihr Beitrag</translation>
    </message>
    <message>
        <source>Credit</source>
        <translation>Credit</translation>
    </message>
    <message>
        <source>credits</source>
        <translation>Credits</translation>
    </message>
    <message>
        <source>Recent average credit</source>
        <translation>Durchschnittlicher Credit zuletzt</translation>
    </message>
    <message>
        <source>Recent average credit: credits per day, averaged so that credit earned a week ago counts half (as BOINC computes it)</source>
        <translation>Durchschnittlicher Credit zuletzt: Credits pro Tag, so gemittelt, dass vor einer Woche verdienter Credit nur halb zählt (wie BOINC ihn berechnet)</translation>
    </message>
    <message>
        <source>Ledger status</source>
        <translation>Status des Beitragsjournals</translation>
    </message>
    <message>
        <source>Samples processed</source>
        <translation>Verarbeitete Samples</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>Rechenarbeit</translation>
    </message>
    <message>
        <source>Hours contributed</source>
        <translation>Beigetragene Stunden</translation>
    </message>
    <message>
        <source>Data sent</source>
        <translation>Gesendete Daten</translation>
    </message>
    <message>
        <source>Data received</source>
        <translation>Empfangene Daten</translation>
    </message>
    <message>
        <source>Confirmed by the swarm</source>
        <translation>Bestätigt vom Schwarm</translation>
    </message>
    <message>
        <source>The samples of this PC&apos;s work that the stages receiving it confirmed to the coordinator, and the credit they are worth: the run credits confirmed work only</source>
        <translation>Die Samples der Arbeit dieses PCs, die die empfangenden Stufen dem Koordinator bestätigt haben, und die Credits, die sie wert sind: der Lauf rechnet nur bestätigte Arbeit an</translation>
    </message>
    <message>
        <source>%1 samples · %2 credits</source>
        <translation>%1 Samples · %2 Credits</translation>
    </message>
    <message>
        <source>Time this PC spent computing for the swarm</source>
        <translation>Zeit, die dieser PC für den Schwarm gerechnet hat</translation>
    </message>
    <message>
        <source>Floating-point operations of the micro-batches this PC trained (1 TFLOP = 10¹² operations; 1 credit = 0.432 TFLOP)</source>
        <translation>Gleitkommaoperationen der Mikro-Batches, die dieser PC trainiert hat (1 TFLOP = 10¹² Operationen; 1 Credit = 0,432 TFLOP)</translation>
    </message>
    <message>
        <source>Per day</source>
        <translation>Pro Tag</translation>
    </message>
    <message>
        <source>Show credit per day</source>
        <translation>Credit pro Tag zeigen</translation>
    </message>
    <message>
        <source>Per hour</source>
        <translation>Pro Stunde</translation>
    </message>
    <message>
        <source>Show credit per hour</source>
        <translation>Credit pro Stunde zeigen</translation>
    </message>
    <message>
        <source>%1: %2 credits, %3 samples</source>
        <translation>%1: %2 Credits, %3 Samples</translation>
    </message>
    <message>
        <source>Credit chart</source>
        <translation>Credit-Diagramm</translation>
    </message>
    <message>
        <source>History not available: %1</source>
        <translation>Verlauf nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>This rookery-node keeps no ledger</source>
        <translation>Dieser rookery-node führt kein Beitragsjournal</translation>
    </message>
    <message>
        <source>Recent average: %1</source>
        <translation>Durchschnitt zuletzt: %1</translation>
    </message>
    <message numerus="yes">
        <source>Not saved yet (%n unit(s) waiting): %1</source>
        <translation>
            <numerusform>Noch nicht gespeichert (%n Einheit wartet): %1</numerusform>
            <numerusform>Noch nicht gespeichert (%n Einheiten warten): %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Shown once rookery-node answers</source>
        <translation>Wird angezeigt, sobald rookery-node antwortet</translation>
    </message>
    <message>
        <source>Your contribution is shown once rookery-node answers.</source>
        <translation>Ihr Beitrag wird angezeigt, sobald rookery-node antwortet.</translation>
    </message>
    <message>
        <source>This rookery-node keeps no ledger, so there is no history to show.</source>
        <translation>Dieser rookery-node führt kein Beitragsjournal, daher gibt es keinen Verlauf.</translation>
    </message>
    <message>
        <source>Loading the history…</source>
        <translation>Verlauf wird geladen…</translation>
    </message>
    <message>
        <source>Nothing contributed yet. This PC runs a local benchmark, which earns no credit: credit comes with each micro-batch it trains for a pipeline.</source>
        <translation>Noch nichts beigetragen. Dieser PC führt einen lokalen Benchmark aus, der keinen Credit bringt: Credit gibt es für jeden Mikro-Batch, den er für eine Pipeline trainiert.</translation>
    </message>
    <message>
        <source>Nothing contributed yet: each micro-batch this PC trains earns credit (1 credit = 432 GFLOP, as in BOINC).</source>
        <translation>Noch nichts beigetragen: Jeder Mikro-Batch, den dieser PC trainiert, bringt Credit (1 Credit = 432 GFLOP, wie bei BOINC).</translation>
    </message>
    <message numerus="yes">
        <source>Credit per day, the last %n day(s)</source>
        <translation>
            <numerusform>Credit pro Tag, %n Tag</numerusform>
            <numerusform>Credit pro Tag, die letzten %n Tage</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Credit per hour, the last %n hour(s)</source>
        <translation>
            <numerusform>Credit pro Stunde, %n Stunde</numerusform>
            <numerusform>Credit pro Stunde, die letzten %n Stunden</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1: %2 credits in all, most on %3 (%4). %5</source>
        <translation>%1: insgesamt %2 Credits, am meisten bei %3 (%4). %5</translation>
    </message>
    <message>
        <source>Credit: %1</source>
        <translation>Credit: %1</translation>
    </message>
</context>
<context>
    <name>rookery::ui::CoordinatorProbe</name>
    <message>
        <source>The coordinator at %1 answered (Rookery %2, %3 ms).</source>
        <translation>Der Koordinator unter %1 hat geantwortet (Rookery %2, %3 ms).</translation>
    </message>
    <message>
        <source>Cannot reach the coordinator at %1. Check the address and your internet connection; the coordinator may also be down or behind a firewall.</source>
        <translation>Der Koordinator unter %1 ist nicht erreichbar. Prüfen Sie die Adresse und Ihre Internetverbindung; der Koordinator kann auch ausgefallen oder durch eine Firewall abgeschirmt sein.</translation>
    </message>
    <message>
        <source>Something answers at %1, but not the coordinator this link names: the secure handshake failed. Ask the job owner for a new invite link.</source>
        <translation>Unter %1 antwortet etwas, aber nicht der Koordinator, den dieser Link nennt: Der sichere Verbindungsaufbau ist fehlgeschlagen. Bitten Sie den Betreiber des Auftrags um einen neuen Einladungslink.</translation>
    </message>
    <message>
        <source>The coordinator at %1 refused this PC: it admits only volunteers on its list. Ask the job owner to add this PC, or for another invite.</source>
        <translation>Der Koordinator unter %1 hat diesen PC abgewiesen: Er lässt nur Freiwillige auf seiner Liste zu. Bitten Sie den Betreiber des Auftrags, diesen PC aufzunehmen, oder um eine andere Einladung.</translation>
    </message>
    <message>
        <source>The coordinator at %1 refused: %2</source>
        <translation>Der Koordinator unter %1 hat abgelehnt: %2</translation>
    </message>
    <message>
        <source>The coordinator at %1 accepted the connection but did not answer. It may be overloaded; try again later.</source>
        <translation>Der Koordinator unter %1 hat die Verbindung angenommen, aber nicht geantwortet. Vielleicht ist er überlastet; versuchen Sie es später erneut.</translation>
    </message>
    <message>
        <source>%1 is not a Rookery coordinator.</source>
        <translation>%1 ist kein Rookery-Koordinator.</translation>
    </message>
    <message>
        <source>Could not contact the coordinator at %1: %2</source>
        <translation>Der Koordinator unter %1 konnte nicht kontaktiert werden: %2</translation>
    </message>
    <message>
        <source>The coordinator at %1 answers but runs no job yet. Ask the job owner when the job starts.</source>
        <translation>Der Koordinator unter %1 antwortet, führt aber noch keinen Auftrag aus. Fragen Sie den Betreiber des Auftrags, wann er beginnt.</translation>
    </message>
    <message>
        <source>The coordinator at %1 runs the job “%2”, not “%3” as the link says. Ask the job owner for a new invite link.</source>
        <translation>Der Koordinator unter %1 führt den Auftrag „%2“ aus, nicht „%3“, wie der Link angibt. Bitten Sie den Betreiber des Auftrags um einen neuen Einladungslink.</translation>
    </message>
</context>
<context>
    <name>rookery::ui::DemoSwarm</name>
    <message>
        <source>rookery-node was not found</source>
        <translation>rookery-node wurde nicht gefunden</translation>
    </message>
    <message>
        <source>rookery-coordinator was not found beside rookery-node</source>
        <translation>rookery-coordinator wurde neben rookery-node nicht gefunden</translation>
    </message>
    <message>
        <source>the demo job (demo-job.json) was not found; set ROOKERY_DEMO_JOB</source>
        <translation>der Demo-Auftrag (demo-job.json) wurde nicht gefunden; setzen Sie ROOKERY_DEMO_JOB</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>%1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>no free port on 127.0.0.1</source>
        <translation>kein freier Port auf 127.0.0.1</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>could not start %1</source>
        <translation>%1 konnte nicht gestartet werden</translation>
    </message>
    <message>
        <source>the demo coordinator did not start; see %1</source>
        <translation>der Demo-Koordinator ist nicht gestartet; siehe %1</translation>
    </message>
    <message>
        <source>the demo coordinator wrote no address to %1</source>
        <translation>der Demo-Koordinator hat keine Adresse in %1 geschrieben</translation>
    </message>
    <message>
        <source>%1 is not a job spec with an id</source>
        <translation>%1 ist keine Auftragsbeschreibung mit ID</translation>
    </message>
    <message>
        <source>%1 could not size the demo job: %2</source>
        <translation>%1 konnte den Speicherbedarf des Demo-Auftrags nicht bestimmen: %2</translation>
    </message>
</context>
<context>
    <name>rookery::ui::DeviceCard</name>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Device name</source>
        <translation>Gerätename</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>GPU-Speicher</translation>
    </message>
    <message>
        <source>Utilisation</source>
        <translation>Auslastung</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>Leistung</translation>
    </message>
    <message>
        <source>Processor</source>
        <translation>Prozessor</translation>
    </message>
    <message>
        <source>Cores</source>
        <translation>Kerne</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Arbeitsspeicher</translation>
    </message>
    <message>
        <source>PC load</source>
        <translation>PC-Auslastung</translation>
    </message>
    <message>
        <source>Rookery&apos;s share</source>
        <translation>Anteil von Rookery</translation>
    </message>
    <message>
        <source>Math library</source>
        <translation>Mathematikbibliothek</translation>
    </message>
    <message>
        <source>Measured speed</source>
        <translation>Gemessene Geschwindigkeit</translation>
    </message>
    <message numerus="yes">
        <source>%n logical core(s)</source>
        <translation>
            <numerusform>%n logischer Kern</numerusform>
            <numerusform>%n logische Kerne</numerusform>
        </translation>
    </message>
    <message>
        <source>GPU · computes on %1</source>
        <translation>GPU · rechnet auf %1</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message numerus="yes">
        <source>%n more GPU(s) in this PC</source>
        <translation>
            <numerusform>%n weitere GPU in diesem PC</numerusform>
            <numerusform>%n weitere GPUs in diesem PC</numerusform>
        </translation>
    </message>
    <message>
        <source>CPU · computes on the processor</source>
        <translation>CPU · rechnet auf dem Prozessor</translation>
    </message>
    <message>
        <source>Unknown processor</source>
        <translation>Unbekannter Prozessor</translation>
    </message>
    <message>
        <source>No GPU telemetry: %1</source>
        <translation>Keine GPU-Telemetrie: %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 · Rookery uses %n</source>
        <translation>
            <numerusform>%1 · Rookery nutzt %n</numerusform>
            <numerusform>%1 · Rookery nutzt %n</numerusform>
        </translation>
    </message>
    <message>
        <source>measuring…</source>
        <translation>wird gemessen…</translation>
    </message>
    <message>
        <source>Waiting for rookery-node</source>
        <translation>Warten auf rookery-node</translation>
    </message>
    <message>
        <source>This PC</source>
        <translation>Dieser PC</translation>
    </message>
    <message>
        <source>The device is shown once rookery-node answers.</source>
        <translation>Das Gerät wird angezeigt, sobald rookery-node antwortet.</translation>
    </message>
    <message>
        <source>Recent load</source>
        <translation>Auslastung zuletzt</translation>
    </message>
    <message>
        <source>%1: now %2, highest %3</source>
        <translation>%1: jetzt %2, höchstens %3</translation>
    </message>
    <message>
        <source>%1 is not used for training</source>
        <translation>%1 wird nicht zum Trainieren genutzt</translation>
    </message>
    <message>
        <source>%1 is not used for training: %2</source>
        <translation>%1 wird nicht zum Trainieren genutzt: %2</translation>
    </message>
</context>
<context>
    <name>rookery::ui::FirstRunDialog</name>
    <message>
        <source>Welcome to Rookery</source>
        <translation>Willkommen bei Rookery</translation>
    </message>
    <message>
        <source>Join a training swarm</source>
        <translation>Einem Trainingsschwarm beitreten</translation>
    </message>
    <message>
        <source>Rookery lends this PC to a swarm of volunteers who train a neural network together. Choose the swarm to join; you can pause or quit at any time.</source>
        <translation>Rookery stellt diesen PC einem Schwarm von Freiwilligen zur Verfügung, die gemeinsam ein neuronales Netz trainieren. Wählen Sie den Schwarm, dem Sie beitreten möchten; Sie können jederzeit pausieren oder beenden.</translation>
    </message>
    <message>
        <source>Join the &amp;demo swarm</source>
        <translation>Dem &amp;Demo-Schwarm beitreten</translation>
    </message>
    <message>
        <source>A small language model trained by a few volunteers on this PC: see Rookery at work within a minute.</source>
        <translation>Ein kleines Sprachmodell, trainiert von einigen Freiwilligen auf diesem PC: Sehen Sie Rookery in weniger als einer Minute bei der Arbeit.</translation>
    </message>
    <message>
        <source>Or paste an &amp;invite link from a job owner:</source>
        <translation>Oder fügen Sie den &amp;Einladungslink eines Auftrags ein:</translation>
    </message>
    <message>
        <source>Paste the &amp;invite link a job owner gave you:</source>
        <translation>Fügen Sie den &amp;Einladungslink ein, den Sie erhalten haben:</translation>
    </message>
    <message>
        <source>Invite link</source>
        <translation>Einladungslink</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>&amp;Join</source>
        <translation>&amp;Beitreten</translation>
    </message>
    <message>
        <source>&amp;Not now</source>
        <translation>&amp;Nicht jetzt</translation>
    </message>
    <message>
        <source>Rookery computes a local benchmark until this PC joins a swarm.</source>
        <translation>Rookery berechnet einen lokalen Benchmark, bis dieser PC einem Schwarm beitritt.</translation>
    </message>
    <message>
        <source>Job “%1” at coordinator %2.</source>
        <translation>Auftrag „%1“ beim Koordinator %2.</translation>
    </message>
    <message>
        <source>This is not a valid invite link: %1.</source>
        <translation>Das ist kein gültiger Einladungslink: %1.</translation>
    </message>
    <message>
        <source>Starting the demo swarm on this PC…</source>
        <translation>Demo-Schwarm wird auf diesem PC gestartet…</translation>
    </message>
    <message>
        <source>The demo swarm could not start: %1</source>
        <translation>Der Demo-Schwarm konnte nicht starten: %1</translation>
    </message>
    <message>
        <source>Contacting the coordinator at %1…</source>
        <translation>Verbindung zum Koordinator unter %1 wird hergestellt…</translation>
    </message>
</context>
<context>
    <name>rookery::ui::InviteLink</name>
    <message>
        <source>the link names no coordinator</source>
        <translation>der Link nennt keinen Koordinator</translation>
    </message>
    <message>
        <source>the coordinator must be a tcp://host:port address, not “%1”</source>
        <translation>der Koordinator muss eine tcp://host:port-Adresse sein, nicht „%1“</translation>
    </message>
    <message>
        <source>“%1” is not a valid tcp://host:port address</source>
        <translation>„%1“ ist keine gültige tcp://host:port-Adresse</translation>
    </message>
    <message>
        <source>the coordinator&apos;s port must be between 1 and 65535, not %1</source>
        <translation>der Port des Koordinators muss zwischen 1 und 65535 liegen, nicht %1</translation>
    </message>
    <message>
        <source>the link has no coordinator key</source>
        <translation>der Link enthält keinen Koordinator-Schlüssel</translation>
    </message>
    <message>
        <source>the coordinator key must be 40 characters long, it has %1</source>
        <translation>der Koordinator-Schlüssel muss 40 Zeichen lang sein, er hat %1</translation>
    </message>
    <message>
        <source>the coordinator key contains “%1”, which is not a Z85 character</source>
        <translation>der Koordinator-Schlüssel enthält „%1“, das kein Z85-Zeichen ist</translation>
    </message>
    <message>
        <source>the link names no job</source>
        <translation>der Link nennt keinen Auftrag</translation>
    </message>
    <message>
        <source>the job id is longer than %1 characters</source>
        <translation>die Auftrags-ID ist länger als %1 Zeichen</translation>
    </message>
    <message>
        <source>the job id may hold only letters, digits, &apos;.&apos;, &apos;-&apos; and &apos;_&apos;</source>
        <translation>die Auftrags-ID darf nur Buchstaben, Ziffern, &apos;.&apos;, &apos;-&apos; und &apos;_&apos; enthalten</translation>
    </message>
    <message>
        <source>paste an invite link</source>
        <translation>fügen Sie einen Einladungslink ein</translation>
    </message>
    <message>
        <source>the link is longer than %1 characters</source>
        <translation>der Link ist länger als %1 Zeichen</translation>
    </message>
    <message>
        <source>an invite link starts with rookery://join?</source>
        <translation>ein Einladungslink beginnt mit rookery://join?</translation>
    </message>
    <message>
        <source>“%1” in the link is not a name=value pair (is the key percent-encoded?)</source>
        <translation>„%1“ im Link ist kein Paar name=value (ist der Schlüssel prozentkodiert?)</translation>
    </message>
    <message>
        <source>the link has an unknown part “%1” (is the key percent-encoded?)</source>
        <translation>der Link hat einen unbekannten Teil „%1“ (ist der Schlüssel prozentkodiert?)</translation>
    </message>
    <message>
        <source>the link gives “%1” twice</source>
        <translation>der Link gibt „%1“ zweimal an</translation>
    </message>
    <message>
        <source>the invite token is longer than %1 characters</source>
        <translation>das Einladungstoken ist länger als %1 Zeichen</translation>
    </message>
    <message>
        <source>the invite token may hold only visible ASCII characters</source>
        <translation>das Einladungstoken darf nur sichtbare ASCII-Zeichen enthalten</translation>
    </message>
    <message>
        <source>the link has an empty invite token</source>
        <translation>der Link enthält ein leeres Einladungstoken</translation>
    </message>
</context>
<context>
    <name>rookery::ui::LanguageChooser</name>
    <message>
        <source>&amp;Language:</source>
        <translation>&amp;Sprache:</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>The system&apos;s (%1)</source>
        <translation>Systemsprache (%1)</translation>
    </message>
    <message>
        <source>Applies when Rookery starts again.</source>
        <translation>Gilt ab dem nächsten Start von Rookery.</translation>
    </message>
</context>
<context>
    <name>rookery::ui::MainWindow</name>
    <message>
        <source>Rookery</source>
        <translation>Rookery</translation>
    </message>
    <message>
        <source>Rookery logo</source>
        <translation>Rookery-Logo</translation>
    </message>
    <message>
        <source>Lend this PC to a swarm of volunteers training a neural network together.</source>
        <translation>Stellen Sie diesen PC einem Schwarm von Freiwilligen zur Verfügung, die gemeinsam ein neuronales Netz trainieren.</translation>
    </message>
    <message>
        <source>Starts or pauses this PC&apos;s contribution to the training</source>
        <translation>Startet oder pausiert den Beitrag dieses PCs zum Training</translation>
    </message>
    <message>
        <source>rookery-node refused: %1</source>
        <translation>rookery-node hat abgelehnt: %1</translation>
    </message>
    <message>
        <source>Started rookery-node (process %1)</source>
        <translation>rookery-node gestartet (Prozess %1)</translation>
    </message>
    <message>
        <source>rookery-node %1 · process %2 · data in %3</source>
        <translation>rookery-node %1 · Prozess %2 · Daten in %3</translation>
    </message>
    <message>
        <source>rookery-node stopped</source>
        <translation>rookery-node wurde beendet</translation>
    </message>
    <message>
        <source>Starting rookery-node…</source>
        <translation>rookery-node wird gestartet…</translation>
    </message>
    <message>
        <source>Connecting to rookery-node…</source>
        <translation>Verbindung zu rookery-node wird hergestellt…</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>Wird beendet…</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausieren</translation>
    </message>
    <message>
        <source>Contribute</source>
        <translation>Beitragen</translation>
    </message>
    <message>
        <source>Rookery is still running</source>
        <translation>Rookery läuft weiter</translation>
    </message>
    <message>
        <source>Rookery keeps working in the tray. Use its menu to pause or quit.</source>
        <translation>Rookery arbeitet im Infobereich weiter. Über sein Menü können Sie pausieren oder beenden.</translation>
    </message>
    <message>
        <source>Rookery keeps contributing</source>
        <translation>Rookery trägt weiter bei</translation>
    </message>
    <message>
        <source>This PC goes on contributing in the background. Open Rookery again to pause it or to quit.</source>
        <translation>Dieser PC trägt im Hintergrund weiter bei. Öffnen Sie Rookery erneut, um zu pausieren oder zu beenden.</translation>
    </message>
    <message>
        <source>Stopping rookery-node: it finishes its current work unit and saves…</source>
        <translation>rookery-node wird beendet: Er schließt die aktuelle Arbeitseinheit ab und speichert…</translation>
    </message>
    <message>
        <source>Close Now</source>
        <translation>Jetzt schließen</translation>
    </message>
    <message>
        <source>Quitting Rookery</source>
        <translation>Rookery wird beendet</translation>
    </message>
    <message>
        <source>Notice</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>Einstellungen…</translation>
    </message>
    <message>
        <source>How much of this PC Rookery may use, while you use it and while it is idle</source>
        <translation>Wie viel dieses PCs Rookery nutzen darf, während Sie ihn benutzen und während er ruht</translation>
    </message>
    <message>
        <source>Settings are kept by rookery-node, which does not answer: %1</source>
        <translation>Die Einstellungen verwaltet rookery-node, der nicht antwortet: %1</translation>
    </message>
    <message>
        <source>Restarting rookery-node with its data in %1…</source>
        <translation>rookery-node wird mit seinen Daten in %1 neu gestartet…</translation>
    </message>
    <message>
        <source>This PC left the job. Open an invite link to join a swarm again.</source>
        <translation>Dieser PC hat die Aufgabe verlassen. Öffnen Sie einen Einladungslink, um wieder einem Schwarm beizutreten.</translation>
    </message>
    <message>
        <source>Restarting rookery-node to find out how it is reached…</source>
        <translation>rookery-node wird neu gestartet, um zu ermitteln, wie er erreichbar ist…</translation>
    </message>
    <message>
        <source>Restarting rookery-node to be reached at %1…</source>
        <translation>rookery-node wird neu gestartet, um unter %1 erreichbar zu sein…</translation>
    </message>
</context>
<context>
    <name>rookery::ui::NodeConnection</name>
    <message>
        <source>rookery-node stopped</source>
        <translation>rookery-node wurde beendet</translation>
    </message>
    <message>
        <source>rookery-node does not answer</source>
        <translation>rookery-node antwortet nicht</translation>
    </message>
    <message>
        <source>rookery-node is not running</source>
        <translation>rookery-node läuft nicht</translation>
    </message>
</context>
<context>
    <name>rookery::ui::NodeLauncher</name>
    <message>
        <source>rookery-node (process %1) is running but does not answer</source>
        <translation>rookery-node (Prozess %1) läuft, antwortet aber nicht</translation>
    </message>
    <message>
        <source>rookery-node was not found; set ROOKERY_NODE_BIN or install it beside rookery</source>
        <translation>rookery-node wurde nicht gefunden; setzen Sie ROOKERY_NODE_BIN oder installieren Sie es neben rookery</translation>
    </message>
    <message>
        <source>rookery-node did not start after %1 attempts; see its log</source>
        <translation>rookery-node ist nach %1 Versuchen nicht gestartet; siehe sein Protokoll</translation>
    </message>
    <message>
        <source>could not start %1: %2</source>
        <translation>%1 konnte nicht gestartet werden: %2</translation>
    </message>
    <message>
        <source>rookery-node (process %1) does not answer</source>
        <translation>rookery-node (Prozess %1) antwortet nicht</translation>
    </message>
    <message>
        <source>rookery-node stopped right after starting; see its log</source>
        <translation>rookery-node wurde direkt nach dem Start beendet; siehe sein Protokoll</translation>
    </message>
</context>
<context>
    <name>rookery::ui::NodeStateCard</name>
    <message>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>Node state</source>
        <translation>Knotenstatus</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Work units</source>
        <translation>Arbeitseinheiten</translation>
    </message>
    <message>
        <source>Work done</source>
        <translation>Geleistete Arbeit</translation>
    </message>
    <message>
        <source>Current speed</source>
        <translation>Aktuelle Geschwindigkeit</translation>
    </message>
    <message>
        <source>Running for</source>
        <translation>Läuft seit</translation>
    </message>
    <message>
        <source>Coordinator</source>
        <translation>Koordinator</translation>
    </message>
    <message>
        <source>Connecting to rookery-node…</source>
        <translation>Verbindung zu rookery-node wird hergestellt…</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>untätig</translation>
    </message>
    <message>
        <source>none: computing a local benchmark workload</source>
        <translation>keiner: berechnet eine lokale Benchmark-Last</translation>
    </message>
    <message>
        <source>%1 (%2 ms)</source>
        <translation>%1 (%2 ms)</translation>
    </message>
    <message>
        <source>none: training a stage of a fixed pipeline plan</source>
        <translation>keiner: trainiert eine Stufe eines festen Pipeline-Plans</translation>
    </message>
    <message>
        <source>Allowed</source>
        <translation>Erlaubt</translation>
    </message>
    <message>
        <source>Sensors</source>
        <translation>Sensoren</translation>
    </message>
    <message numerus="yes">
        <source>%n thread(s)</source>
        <translation>
            <numerusform>%n Thread</numerusform>
            <numerusform>%n Threads</numerusform>
        </translation>
    </message>
    <message>
        <source>, %1% CPU time</source>
        <translation>, %1 % CPU-Zeit</translation>
    </message>
    <message>
        <source>, upload %1 KiB/s</source>
        <translation>, Upload %1 KiB/s</translation>
    </message>
    <message>
        <source>, download %1 KiB/s</source>
        <translation>, Download %1 KiB/s</translation>
    </message>
    <message>
        <source> (in use)</source>
        <translation> (PC in Benutzung)</translation>
    </message>
    <message>
        <source> (idle)</source>
        <translation> (PC im Leerlauf)</translation>
    </message>
    <message>
        <source>; not available: %1</source>
        <translation>; nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>rookery::ui::PipelineDiagram</name>
    <message>
        <source>Pipeline diagram</source>
        <translation>Pipeline-Diagramm</translation>
    </message>
    <message>
        <source>This PC is not in a pipeline</source>
        <translation>Dieser PC ist in keiner Pipeline</translation>
    </message>
    <message numerus="yes">
        <source>A pipeline of %n stage(s), from the data to the loss.</source>
        <translation>
            <numerusform>Eine Pipeline aus %n Stufe, von den Daten bis zum Verlust.</numerusform>
            <numerusform>Eine Pipeline aus %n Stufen, von den Daten bis zum Verlust.</numerusform>
        </translation>
    </message>
    <message>
        <source>This PC is stage %1 and holds %2.</source>
        <translation>Dieser PC ist Stufe %1 und hält %2.</translation>
    </message>
    <message>
        <source>data</source>
        <translation>Daten</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <source>Stage %1 · this PC</source>
        <translation>Stufe %1 · dieser PC</translation>
    </message>
    <message numerus="yes">
        <source>The swarm: %n pipeline(s).</source>
        <translation>
            <numerusform>Der Schwarm: %n Pipeline.</numerusform>
            <numerusform>Der Schwarm: %n Pipelines.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pipeline %1, this PC&apos;s: %n stage(s), %2 samples/s.</source>
        <translation>
            <numerusform>Pipeline %1, die dieses PCs: %n Stufe, %2 Samples/s.</numerusform>
            <numerusform>Pipeline %1, die dieses PCs: %n Stufen, %2 Samples/s.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pipeline %1: %n stage(s), %2 samples/s.</source>
        <translation>
            <numerusform>Pipeline %1: %n Stufe, %2 Samples/s.</numerusform>
            <numerusform>Pipeline %1: %n Stufen, %2 Samples/s.</numerusform>
        </translation>
    </message>
    <message>
        <source>P%1</source>
        <translation>P%1</translation>
    </message>
    <message>
        <source>this PC · %1/s</source>
        <translation>dieser PC · %1/s</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/s</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>Stufe %1</translation>
    </message>
</context>
<context>
    <name>rookery::ui::PresenceReporter</name>
    <message>
        <source>this window&apos;s input only</source>
        <translation>nur Eingaben in diesem Fenster</translation>
    </message>
    <message>
        <source>needs the X11 screensaver extension (libXss)</source>
        <translation>benötigt die X11-Bildschirmschoner-Erweiterung (libXss)</translation>
    </message>
    <message>
        <source>X11 screensaver extension</source>
        <translation>X11-Bildschirmschoner-Erweiterung</translation>
    </message>
    <message>
        <source>the active window&apos;s _NET_WM_STATE</source>
        <translation>_NET_WM_STATE des aktiven Fensters</translation>
    </message>
    <message>
        <source>the window manager does not report the active window</source>
        <translation>die Fensterverwaltung meldet das aktive Fenster nicht</translation>
    </message>
    <message>
        <source>not an X11 session</source>
        <translation>keine X11-Sitzung</translation>
    </message>
</context>
<context>
    <name>rookery::ui::SettingsDialog</name>
    <message>
        <source>Rookery settings</source>
        <translation>Rookery-Einstellungen</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>Dieser Computer</translation>
    </message>
    <message>
        <source>Start with my session</source>
        <translation>Mit meiner Sitzung starten</translation>
    </message>
    <message>
        <source>Open Rookery in the tray when you log in (%1)</source>
        <translation>Rookery beim Anmelden im Infobereich öffnen (%1)</translation>
    </message>
    <message>
        <source>Snooze for an hour</source>
        <translation>Eine Stunde schlummern</translation>
    </message>
    <message>
        <source>While I use my PC</source>
        <translation>Während ich meinen PC benutze</translation>
    </message>
    <message>
        <source>While the PC is idle</source>
        <translation>Während der PC ruht</translation>
    </message>
    <message>
        <source>Always</source>
        <translation>Immer</translation>
    </message>
    <message>
        <source>any time; e.g. mon-fri 18:00-08:00; weekends 00:00-24:00</source>
        <translation>jederzeit; z. B. mon-fri 18:00-08:00; weekends 00:00-24:00</translation>
    </message>
    <message>
        <source>none; e.g. steam, blender</source>
        <translation>keine; z. B. steam, blender</translation>
    </message>
    <message>
        <source>Default: %1</source>
        <translation>Standard: %1</translation>
    </message>
    <message>
        <source>The node took your settings, but starting with your session could not be changed: %1</source>
        <translation>Der Knoten hat Ihre Einstellungen übernommen, aber der Start mit Ihrer Sitzung konnte nicht geändert werden: %1</translation>
    </message>
    <message>
        <source>Starting with your session could not be changed: %1</source>
        <translation>Der Start mit Ihrer Sitzung konnte nicht geändert werden: %1</translation>
    </message>
    <message>
        <source>&amp;Data folder:</source>
        <translation>&amp;Datenordner:</translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation>Datenordner</translation>
    </message>
    <message>
        <source>Where rookery-node keeps this PC&apos;s keys, its settings, the contribution ledger and checkpoints. Another folder starts afresh (a new identity, an empty ledger) unless you copy the old one there; the node restarts to use it.</source>
        <translation>Hier bewahrt rookery-node die Schlüssel dieses PCs, seine Einstellungen, das Beitragsjournal und die Checkpoints auf. Ein anderer Ordner beginnt von vorn (neue Identität, leeres Journal), außer Sie kopieren den alten dorthin; der Knoten startet dafür neu.</translation>
    </message>
    <message>
        <source>C&amp;hoose…</source>
        <translation>Aus&amp;wählen…</translation>
    </message>
    <message>
        <source>Choose the data folder</source>
        <translation>Den Datenordner auswählen</translation>
    </message>
    <message>
        <source>The swarm</source>
        <translation>Der Schwarm</translation>
    </message>
    <message>
        <source>&amp;Leave this job…</source>
        <translation>Aufgabe &amp;verlassen…</translation>
    </message>
    <message>
        <source>This PC stops training for the job for good: the coordinator plans without it at once</source>
        <translation>Dieser PC hört endgültig auf, für die Aufgabe zu trainieren: Der Koordinator plant sofort ohne ihn</translation>
    </message>
    <message>
        <source>This PC volunteers for job “%1” at coordinator %2.</source>
        <translation>Dieser PC arbeitet freiwillig für die Aufgabe „%1“ beim Koordinator %2.</translation>
    </message>
    <message>
        <source>This PC talks to coordinator %1 but has joined none of its jobs.</source>
        <translation>Dieser PC spricht mit dem Koordinator %1, ist aber keiner seiner Aufgaben beigetreten.</translation>
    </message>
    <message>
        <source>This PC trains a stage of a fixed pipeline plan, without a coordinator.</source>
        <translation>Dieser PC trainiert eine Stufe eines festen Pipeline-Plans, ohne Koordinator.</translation>
    </message>
    <message>
        <source>This PC has joined no swarm: open an invite link to join one.</source>
        <translation>Dieser PC ist keinem Schwarm beigetreten: Öffnen Sie einen Einladungslink, um einem beizutreten.</translation>
    </message>
    <message>
        <source>The data folder must be a full path, such as %1.</source>
        <translation>Der Datenordner muss ein vollständiger Pfad sein, etwa %1.</translation>
    </message>
    <message>
        <source>Rookery&apos;s data folder</source>
        <translation>Datenordner von Rookery</translation>
    </message>
    <message>
        <source>Leave this job?</source>
        <translation>Diese Aufgabe verlassen?</translation>
    </message>
    <message>
        <source>This PC stops training for the job for good; its contribution so far stays counted. Rookery then joins no swarm until you open an invite link.</source>
        <translation>Dieser PC hört endgültig auf, für die Aufgabe zu trainieren; sein bisheriger Beitrag bleibt gezählt. Rookery tritt dann keinem Schwarm bei, bis Sie einen Einladungslink öffnen.</translation>
    </message>
    <message>
        <source>The node cannot leave the job: %1</source>
        <translation>Der Knoten kann die Aufgabe nicht verlassen: %1</translation>
    </message>
    <message>
        <source>Leaving the job: the node finishes its work in progress, tells the coordinator and stops.</source>
        <translation>Die Aufgabe wird verlassen: Der Knoten beendet die laufende Arbeit, sagt dem Koordinator Bescheid und hält an.</translation>
    </message>
    <message>
        <source>Reached at (e&amp;xperts):</source>
        <translation>Erreichbar unter (E&amp;xperten):</translation>
    </message>
    <message>
        <source>Address other PCs reach this one at</source>
        <translation>Adresse, unter der andere PCs diesen erreichen</translation>
    </message>
    <message>
        <source>found out by Rookery</source>
        <translation>von Rookery ermittelt</translation>
    </message>
    <message>
        <source>Leave empty: Rookery finds out how other PCs reach this one (through the home router, or a relay). An address here (a public IP address or host name of this PC) is used as it is, and the node listens only there; the node restarts to use it.</source>
        <translation>Leer lassen: Rookery ermittelt, wie andere PCs diesen erreichen (über den Heimrouter oder ein Relay). Eine Adresse hier (eine öffentliche IP-Adresse oder ein Hostname dieses PCs) wird so verwendet, und der Knoten lauscht nur dort; er startet dafür neu.</translation>
    </message>
    <message>
        <source>“%1” is not an address: give an IP address (such as 203.0.113.7 or 2001:db8::7) or a host name, or leave it empty.</source>
        <translation>„%1“ ist keine Adresse: Geben Sie eine IP-Adresse (etwa 203.0.113.7 oder 2001:db8::7) oder einen Hostnamen an, oder lassen Sie das Feld leer.</translation>
    </message>
</context>
<context>
    <name>rookery::ui::SingleInstance</name>
    <message>
        <source>cannot create %1</source>
        <translation>%1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>Rookery is already running (process %1) but does not answer</source>
        <translation>Rookery läuft bereits (Prozess %1), antwortet aber nicht</translation>
    </message>
    <message>
        <source>Rookery is already running but does not answer</source>
        <translation>Rookery läuft bereits, antwortet aber nicht</translation>
    </message>
    <message>
        <source>cannot listen on %1: %2</source>
        <translation>auf %1 kann nicht gewartet werden: %2</translation>
    </message>
</context>
<context>
    <name>rookery::ui::SwarmCard</name>
    <message>
        <source>Your place in the swarm</source>
        <translation>Ihr Platz im Schwarm</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>Auftrag</translation>
    </message>
    <message>
        <source>Place in the pipeline</source>
        <translation>Platz in der Pipeline</translation>
    </message>
    <message>
        <source>Receives from</source>
        <translation>Empfängt von</translation>
    </message>
    <message>
        <source>Sends to</source>
        <translation>Sendet an</translation>
    </message>
    <message>
        <source>In flight</source>
        <translation>Unterwegs</translation>
    </message>
    <message>
        <source>Weight versions</source>
        <translation>Gewichtsversionen</translation>
    </message>
    <message>
        <source>Dropped · rejected</source>
        <translation>Verworfen · abgelehnt</translation>
    </message>
    <message>
        <source>Sent to peers</source>
        <translation>An Peers gesendet</translation>
    </message>
    <message>
        <source>Ring partners</source>
        <translation>Ring-Partner</translation>
    </message>
    <message>
        <source>none: no other pipeline averages with this one</source>
        <translation>keine: keine andere Pipeline mittelt mit dieser</translation>
    </message>
    <message>
        <source>pipeline %1 · %2 · %3 values shared</source>
        <translation>Pipeline %1 · %2 · %3 gemeinsame Werte</translation>
    </message>
    <message>
        <source>%1 · excluded</source>
        <translation>%1 · ausgeschlossen</translation>
    </message>
    <message>
        <source>Not in a pipeline yet</source>
        <translation>Noch in keiner Pipeline</translation>
    </message>
    <message>
        <source>Contributing benchmark work</source>
        <translation>Trägt Benchmark-Arbeit bei</translation>
    </message>
    <message>
        <source>Benchmark work only</source>
        <translation>Nur Benchmark-Arbeit</translation>
    </message>
    <message>
        <source>This PC computes a benchmark workload until a coordinator places it in a pipeline.</source>
        <translation>Dieser PC berechnet eine Benchmark-Last, bis ein Koordinator ihn in eine Pipeline einreiht.</translation>
    </message>
    <message>
        <source>When you contribute, this PC computes a benchmark workload until a coordinator places it in a pipeline.</source>
        <translation>Wenn Sie beitragen, berechnet dieser PC eine Benchmark-Last, bis ein Koordinator ihn in eine Pipeline einreiht.</translation>
    </message>
    <message>
        <source>Job %1</source>
        <translation>Auftrag %1</translation>
    </message>
    <message>
        <source>Pipeline %1 · stage %2 of %3 · %4</source>
        <translation>Pipeline %1 · Stufe %2 von %3 · %4</translation>
    </message>
    <message>
        <source>the dataset (first stage)</source>
        <translation>dem Datensatz (erste Stufe)</translation>
    </message>
    <message>
        <source>nobody: computes the loss (last stage)</source>
        <translation>niemandem: berechnet den Verlust (letzte Stufe)</translation>
    </message>
    <message numerus="yes">
        <source>%n micro-batch(es)</source>
        <translation>
            <numerusform>%n Mikro-Batch</numerusform>
            <numerusform>%n Mikro-Batches</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 stashed · %2</source>
        <translation>%1 vorgehalten · %2</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Dropped: micro-batches whose gradient did not come back in time. Rejected: messages that did not match what this stage expected.</source>
        <translation>Verworfen: Mikro-Batches, deren Gradient nicht rechtzeitig zurückkam. Abgelehnt: Nachrichten, die nicht zu dem passten, was diese Stufe erwartete.</translation>
    </message>
    <message>
        <source>Fed every micro-batch it was asked to; none is in flight.</source>
        <translation>Alle angeforderten Mikro-Batches wurden eingespeist; keiner ist unterwegs.</translation>
    </message>
    <message>
        <source>Waiting for rookery-node</source>
        <translation>Warten auf rookery-node</translation>
    </message>
    <message>
        <source>The swarm is shown once rookery-node answers.</source>
        <translation>Der Schwarm wird angezeigt, sobald rookery-node antwortet.</translation>
    </message>
    <message>
        <source>The swarm</source>
        <translation>Der Schwarm</translation>
    </message>
    <message>
        <source>Your rank</source>
        <translation>Ihr Rang</translation>
    </message>
    <message>
        <source>The run&apos;s loss</source>
        <translation>Verlust des Trainings</translation>
    </message>
    <message numerus="yes">
        <source>%n volunteer(s) in %1 · %2 samples/s</source>
        <translation>
            <numerusform>%n Freiwilliger in %1 · %2 Samples/s</numerusform>
            <numerusform>%n Freiwillige in %1 · %2 Samples/s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n pipeline(s)</source>
        <translation>
            <numerusform>%n Pipeline</numerusform>
            <numerusform>%n Pipelines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Plan %1 from the coordinator; it has re-planned %n time(s) as volunteers came and went.</source>
        <translation>
            <numerusform>Plan %1 vom Koordinator; er hat %n Mal neu geplant, als Freiwillige kamen und gingen.</numerusform>
            <numerusform>Plan %1 vom Koordinator; er hat %n Mal neu geplant, als Freiwillige kamen und gingen.</numerusform>
        </translation>
    </message>
    <message>
        <source>not ranked yet</source>
        <translation>noch ohne Rang</translation>
    </message>
    <message>
        <source>#%1 of %2 by confirmed samples (%3)</source>
        <translation>Nr. %1 von %2 nach bestätigten Samples (%3)</translation>
    </message>
    <message>
        <source>The stages that received this PC&apos;s work confirmed %1 of the %2 samples it did; the run credits only confirmed work.</source>
        <translation>Die Stufen, die die Arbeit dieses PCs erhielten, haben %1 der %2 Samples bestätigt, die er berechnet hat; der Lauf rechnet nur bestätigte Arbeit an.</translation>
    </message>
    <message>
        <source>%1 (from %2)</source>
        <translation>%1 (von %2)</translation>
    </message>
    <message>
        <source>no loss reported yet</source>
        <translation>noch kein Verlust gemeldet</translation>
    </message>
    <message>
        <source>minutes</source>
        <translation>Minuten</translation>
    </message>
    <message>
        <source>The run&apos;s loss curve</source>
        <translation>Verlaufskurve des Trainingsverlusts</translation>
    </message>
    <message>
        <source>The run&apos;s loss went from %1 to %2 in %3</source>
        <translation>Der Verlust des Trainings ging in %3 von %1 auf %2</translation>
    </message>
    <message>
        <source>How peers reach this PC</source>
        <translation>Wie andere diesen PC erreichen</translation>
    </message>
    <message>
        <source>Model archive</source>
        <translation>Modellarchiv</translation>
    </message>
    <message>
        <source>Held-out loss</source>
        <translation>Verlust auf Testdaten</translation>
    </message>
    <message>
        <source>its held-out loss is %1</source>
        <translation>sein Verlust auf Testdaten ist %1</translation>
    </message>
    <message>
        <source>held-out %1</source>
        <translation>Testdaten %1</translation>
    </message>
    <message>
        <source>no snapshot yet</source>
        <translation>noch kein Schnappschuss</translation>
    </message>
    <message>
        <source>The coordinator keeps snapshots of the whole model, collected from the volunteers who train it.</source>
        <translation>Der Koordinator bewahrt Schnappschüsse des ganzen Modells auf, gesammelt bei den Freiwilligen, die es trainieren.</translation>
    </message>
    <message>
        <source>snapshot %1, %2 ago</source>
        <translation>Schnappschuss %1, vor %2</translation>
    </message>
    <message>
        <source>Blocks %1–%2 came back from snapshot %3, %4 ago: no volunteer held them.</source>
        <translation>Die Blöcke %1–%2 kamen vor %4 aus Schnappschuss %3 zurück: Kein Freiwilliger hielt sie.</translation>
    </message>
    <message>
        <source>blocks %1–%2 restored from snapshot %3</source>
        <translation>Blöcke %1–%2 aus Schnappschuss %3 wiederhergestellt</translation>
    </message>
</context>
<context>
    <name>rookery::ui::TrainingCard</name>
    <message>
        <source>Training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <source>Moving average</source>
        <translation>Gleitender Durchschnitt</translation>
    </message>
    <message>
        <source>micro-batches</source>
        <translation>Mikro-Batches</translation>
    </message>
    <message>
        <source>Loss chart</source>
        <translation>Verlustdiagramm</translation>
    </message>
    <message>
        <source>Loss of each micro-batch this stage completed (faint) and its moving average</source>
        <translation>Verlust jedes Mikro-Batches, den diese Stufe abgeschlossen hat (blass), und sein gleitender Durchschnitt</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>Samples</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>Geschwindigkeit</translation>
    </message>
    <message>
        <source>Optimizer steps</source>
        <translation>Optimierungsschritte</translation>
    </message>
    <message>
        <source>No model to train yet: the loss curve appears here once this PC trains a stage of a pipeline.</source>
        <translation>Noch kein Modell zu trainieren: Die Verlustkurve erscheint hier, sobald dieser PC eine Stufe einer Pipeline trainiert.</translation>
    </message>
    <message>
        <source>Waiting for the first micro-batch to come back through the pipeline…</source>
        <translation>Warten, bis der erste Mikro-Batch durch die Pipeline zurückkommt…</translation>
    </message>
    <message>
        <source>Press Contribute to train: the loss curve appears here.</source>
        <translation>Klicken Sie auf „Beitragen“, um zu trainieren: Die Verlustkurve erscheint hier.</translation>
    </message>
    <message>
        <source>%1 · average %2</source>
        <translation>%1 · Durchschnitt %2</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>noch keiner</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>untätig</translation>
    </message>
    <message>
        <source>The training is shown once rookery-node answers.</source>
        <translation>Das Training wird angezeigt, sobald rookery-node antwortet.</translation>
    </message>
    <message>
        <source>No loss yet</source>
        <translation>Noch kein Verlust</translation>
    </message>
    <message>
        <source>Loss %1 after %2 micro-batches; %3 at micro-batch %4</source>
        <translation>Verlust %1 nach %2 Mikro-Batches; %3 bei Mikro-Batch %4</translation>
    </message>
    <message>
        <source>What the run&apos;s model writes</source>
        <translation>Was das Modell des Trainings schreibt</translation>
    </message>
    <message>
        <source>What the run&apos;s model predicts (snapshot %1, held-out loss %2, accuracy %3)</source>
        <translation>Was das Modell des Trainings vorhersagt (Schnappschuss %1, Verlust auf Testdaten %2, Genauigkeit %3)</translation>
    </message>
    <message>
        <source>%1 as %2</source>
        <translation>%1 als %2</translation>
    </message>
    <message>
        <source>%1 of %2 held-out images right: %3</source>
        <translation>%1 von %2 Testbildern richtig: %3</translation>
    </message>
    <message>
        <source>What the run&apos;s model writes (snapshot %1, held-out loss %2)</source>
        <translation>Was das Modell des Trainings schreibt (Schnappschuss %1, Verlust auf Testdaten %2)</translation>
    </message>
</context>
<context>
    <name>rookery::ui::TrayIcon</name>
    <message>
        <source>Rookery tray menu</source>
        <translation>Rookery-Menü im Infobereich</translation>
    </message>
    <message>
        <source>Contribute</source>
        <translation>Beitragen</translation>
    </message>
    <message>
        <source>Open Rookery</source>
        <translation>Rookery öffnen</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <source>Stop contributing, stop rookery-node and close Rookery</source>
        <translation>Beitrag beenden, rookery-node stoppen und Rookery schließen</translation>
    </message>
    <message>
        <source>Rookery</source>
        <translation>Rookery</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausieren</translation>
    </message>
    <message>
        <source>Rookery: %1</source>
        <translation>Rookery: %1</translation>
    </message>
    <message>
        <source>Rookery: the disk is full</source>
        <translation>Rookery: Der Datenträger ist voll</translation>
    </message>
    <message>
        <source>rookery-node cannot save its work: %1. Free some disk space on this PC, then start Rookery again.</source>
        <translation>rookery-node kann seine Arbeit nicht speichern: %1. Geben Sie auf diesem PC Speicherplatz frei und starten Sie Rookery dann erneut.</translation>
    </message>
    <message>
        <source>Rookery stopped contributing</source>
        <translation>Rookery trägt nicht mehr bei</translation>
    </message>
    <message>
        <source>rookery-node reports an error: %1</source>
        <translation>rookery-node meldet einen Fehler: %1</translation>
    </message>
    <message>
        <source>The coordinator refused this PC</source>
        <translation>Der Koordinator hat diesen PC abgewiesen</translation>
    </message>
    <message>
        <source>The training job ended</source>
        <translation>Der Trainingsauftrag ist beendet</translation>
    </message>
    <message>
        <source>This PC has nothing more to do for its job. Thank you for contributing!</source>
        <translation>Dieser PC hat für seinen Auftrag nichts mehr zu tun. Danke für Ihren Beitrag!</translation>
    </message>
    <message>
        <source>“%1” has ended: this PC has nothing more to do for it. Thank you for contributing!</source>
        <translation>„%1“ ist beendet: Dieser PC hat dafür nichts mehr zu tun. Danke für Ihren Beitrag!</translation>
    </message>
    <message>
        <source>rookery-node cannot record your contribution: %1. Free some disk space on this PC; the work done meanwhile is written once there is room.</source>
        <translation>rookery-node kann Ihren Beitrag nicht festhalten: %1. Geben Sie auf diesem PC Speicherplatz frei; die inzwischen geleistete Arbeit wird geschrieben, sobald wieder Platz ist.</translation>
    </message>
    <message>
        <source>Snooze for an hour</source>
        <translation>Eine Stunde schlummern</translation>
    </message>
    <message>
        <source>End the snooze</source>
        <translation>Schlummern beenden</translation>
    </message>
    <message>
        <source>The coordinator banned this PC</source>
        <translation>Der Koordinator hat diesen PC ausgeschlossen</translation>
    </message>
    <message>
        <source>Banned from the job: %1. This PC no longer trains with the swarm; open Rookery for details.</source>
        <translation>Von der Aufgabe ausgeschlossen: %1. Dieser PC trainiert nicht mehr mit dem Schwarm; Einzelheiten zeigt Rookery.</translation>
    </message>
    <message>
        <source>Refused: %1. This PC no longer trains with the swarm; open Rookery for details.</source>
        <translation>Abgelehnt: %1. Dieser PC trainiert nicht mehr mit dem Schwarm; Einzelheiten zeigt Rookery.</translation>
    </message>
</context>
</TS>
